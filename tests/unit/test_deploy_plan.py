"""Deploy plans are data: what a tool's deploy would do, checked without making a call."""

from toolgen.deploy import FunctionSpec, plan_tool_deploy
from toolgen.deploy.plan import ApiCall, RemoteFunction, Wait, plan_tool_delete

SPEC = FunctionSpec(
    function_name="toolgen-tool-tabc",
    role_arn="arn:aws:iam::1:role/tool",
    layer_arn="arn:aws:lambda:us-east-1:1:layer:base:3",
    package=b"zip-bytes",
    environment={"TOOL_ID": "tabc"},
    tags={"toolgen:tool": "tabc"},
)


def calls(plan):
    return [(s.method if isinstance(s, ApiCall) else f"wait:{s.waiter}") for s in plan]


def test_new_tool_is_created_active_limited_and_given_a_url():
    plan = plan_tool_deploy(SPEC, remote=None)
    assert calls(plan) == [
        "create_function",
        "wait:function_active_v2",
        "put_function_concurrency",
        "create_function_url_config",
        "add_permission",
        "add_permission",
    ]
    create = plan[0].params
    assert create["Timeout"] == 10 and create["Layers"] == [SPEC.layer_arn] and create["Runtime"] == "python3.12"
    assert create["Code"] == {"ZipFile": b"zip-bytes"}
    assert plan[0].undo == ApiCall("lambda", "delete_function", {"FunctionName": "toolgen-tool-tabc"})
    assert plan[2].params["ReservedConcurrentExecutions"] == 5
    assert plan[3].output == "FunctionUrl"


def test_unchanged_code_is_not_uploaded_again():
    plan = plan_tool_deploy(SPEC, remote=RemoteFunction(code_sha256=SPEC.code_sha256, has_url=True))
    assert "update_function_code" not in calls(plan)
    assert calls(plan)[:2] == ["update_function_configuration", "wait:function_updated_v2"]
    assert calls(plan)[-1] == "get_function_url_config"


def test_changed_code_is_uploaded_and_waited_for():
    plan = plan_tool_deploy(SPEC, remote=RemoteFunction(code_sha256="old", has_url=False))
    assert calls(plan)[:2] == ["update_function_code", "wait:function_updated_v2"]
    assert "create_function_url_config" in calls(plan)


def test_delete_plan_removes_the_function():
    assert plan_tool_delete("toolgen-tool-tabc") == [
        ApiCall("lambda", "delete_function", {"FunctionName": "toolgen-tool-tabc"})
    ]


def test_wait_steps_name_the_function():
    assert Wait("function_active_v2", "toolgen-tool-tabc") in plan_tool_deploy(SPEC, None)
