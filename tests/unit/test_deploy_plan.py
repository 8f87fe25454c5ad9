"""Deploy plans are data: what a tool's deploy would do, checked without making a call."""

from dataclasses import replace

from toolgen.deploy import FunctionSpec, plan_tool_deploy
from toolgen.deploy.plan import (
    TOOL_ALIAS,
    URL_STATEMENTS,
    ApiCall,
    DeleteVersionIfUnaliased,
    Output,
    RemoteFunction,
    Wait,
    live,
    plan_tool_delete,
)

NAME = "toolgen-tool-tabc"
SPEC = FunctionSpec(
    function_name=NAME,
    role_arn="arn:aws:iam::1:role/tool",
    layer_arn="arn:aws:lambda:us-east-1:1:layer:base:3",
    package=b"zip-bytes",
    environment={"TOOL_ID": "tabc"},
    tags={"toolgen:tool": "tabc"},
    cors_origins=("https://pages.example",),
)


def in_step(spec: FunctionSpec = SPEC, **changes) -> RemoteFunction:
    """The remote state of a function deployed exactly as ``spec`` says, live on version 3 (then ``changes``)."""
    remote = RemoteFunction(
        code_sha256=spec.code_sha256,
        arn=f"arn:aws:lambda:us-east-1:1:function:{NAME}",
        configuration={**spec.configuration(), "SnapStart": {"ApplyOn": "None"}},
        tags=dict(spec.tags),
        concurrency=spec.concurrency,
        live_version="3",
        versions=("1", "2", "3"),
        url_cors=spec.cors(),
        statements=frozenset(URL_STATEMENTS),
    )
    return replace(remote, **changes)


def calls(plan):
    return [(s.method if isinstance(s, ApiCall) else f"wait:{s.waiter}") for s in plan]


def step(plan, method):
    return next(s for s in plan if isinstance(s, ApiCall) and s.method == method)


def test_new_tool_is_created_limited_published_behind_live_and_given_a_url():
    plan = plan_tool_deploy(SPEC, remote=None)
    assert calls(plan) == [
        "create_function",
        "wait:function_active_v2",
        "put_function_concurrency",
        "publish_version",
        "wait:function_active_v2",
        "create_alias",
        "create_function_url_config",
        "add_permission",
        "add_permission",
    ]
    create = plan[0].params
    assert create["Timeout"] == 10 and create["Layers"] == [SPEC.layer_arn] and create["Runtime"] == "python3.12"
    assert create["Code"] == {"ZipFile": b"zip-bytes"} and create["Tags"] == {"toolgen:tool": "tabc"}
    assert plan[0].undo == ApiCall("lambda", "delete_function", {"FunctionName": NAME})
    assert step(plan, "put_function_concurrency").params["ReservedConcurrentExecutions"] == 5
    # the version published is the code uploaded, and the alias points at whatever version that was
    assert step(plan, "publish_version").params["CodeSha256"] == SPEC.code_sha256
    assert step(plan, "create_alias").params == {
        "FunctionName": NAME,
        "Name": "live",
        "FunctionVersion": Output("Version"),
    }
    assert plan[4] == Wait("function_active_v2", NAME, qualifier=Output("Version"))
    # the URL is the alias's, with CORS for the page's origin only
    url = step(plan, "create_function_url_config")
    assert url.output == "FunctionUrl" and url.params["Qualifier"] == TOOL_ALIAS
    assert url.params["Cors"]["AllowOrigins"] == ["https://pages.example"]
    assert "authorization" in url.params["Cors"]["AllowHeaders"]
    permissions = [s.params for s in plan if isinstance(s, ApiCall) and s.method == "add_permission"]
    assert {p["StatementId"] for p in permissions} == set(URL_STATEMENTS)
    assert all(p["Qualifier"] == TOOL_ALIAS for p in permissions)


def test_a_new_tools_rollback_is_deleting_its_function():
    undos = [s.undo for s in plan_tool_deploy(SPEC, None) if isinstance(s, ApiCall) and s.undo]
    assert undos == [ApiCall("lambda", "delete_function", {"FunctionName": NAME})]


def test_an_unchanged_tool_uploads_and_configures_nothing_and_only_reads_its_url():
    plan = plan_tool_deploy(SPEC, remote=in_step())
    assert calls(plan) == [
        "publish_version",  # Lambda answers with the live version when nothing changed
        "wait:function_active_v2",
        "update_alias",
        "get_function_url_config",
        "delete_function",  # version 1: older than the one that was live
        "delete_function",  # version 2
    ]


def test_changed_code_is_uploaded_waited_for_and_published():
    plan = plan_tool_deploy(replace(SPEC, package=b"new-zip"), remote=in_step())
    assert calls(plan)[:4] == [
        "update_function_code",
        "wait:function_updated_v2",
        "publish_version",
        "wait:function_active_v2",
    ]
    assert step(plan, "update_function_code").params == {"FunctionName": NAME, "ZipFile": b"new-zip"}


def test_a_changed_setting_updates_the_configuration_only():
    plan = plan_tool_deploy(replace(SPEC, timeout_s=5, environment={"TOOL_ID": "tabc", "X": "1"}), remote=in_step())
    assert calls(plan)[:2] == ["update_function_configuration", "wait:function_updated_v2"]
    assert "update_function_code" not in calls(plan)
    config = step(plan, "update_function_configuration").params
    assert config["Timeout"] == 5 and config["Environment"] == {"Variables": {"TOOL_ID": "tabc", "X": "1"}}


def test_changed_tags_concurrency_and_cors_are_set_again():
    remote = in_step(tags={}, concurrency=2, url_cors={"AllowOrigins": ["*"]})
    plan = plan_tool_deploy(SPEC, remote)
    assert step(plan, "tag_resource").params == {"Resource": remote.arn, "Tags": SPEC.tags}
    assert step(plan, "put_function_concurrency").params["ReservedConcurrentExecutions"] == 5
    update = step(plan, "update_function_url_config")
    assert update.params["Cors"] == SPEC.cors() and update.output == "FunctionUrl"


def test_a_leased_tool_reserves_nothing_and_gives_back_a_reservation_it_had():
    from toolgen.deploy.execute import leased

    spec = leased(SPEC)
    assert spec.environment["TOOLGEN_LEASE_LIMIT"] == "5" and spec.environment["TOOLGEN_LEASE_HOLD_S"] == "12"
    new = calls(plan_tool_deploy(spec, None))
    assert "put_function_concurrency" not in new and "delete_function_concurrency" not in new
    was_reserved = plan_tool_deploy(spec, in_step())
    assert step(was_reserved, "delete_function_concurrency").params == {"FunctionName": NAME}
    # its environment now says it keeps its own limit: a new configuration, published behind live
    assert step(was_reserved, "update_function_configuration").params["Environment"]["Variables"] == spec.environment
    assert "delete_function_concurrency" not in calls(plan_tool_deploy(spec, in_step(spec, concurrency=None)))


def test_an_update_moves_the_alias_and_undoes_by_moving_it_back():
    plan = plan_tool_deploy(replace(SPEC, package=b"new-zip"), remote=in_step())
    alias = step(plan, "update_alias")
    assert alias.params["FunctionVersion"] == Output("Version")
    assert alias.undo == ApiCall(
        "lambda", "update_alias", {"FunctionName": NAME, "Name": "live", "FunctionVersion": "3"}
    )
    assert step(plan, "publish_version").undo == DeleteVersionIfUnaliased(NAME, Output("Version"))


def test_the_alias_moves_before_anything_is_tidied():
    plan = calls(plan_tool_deploy(replace(SPEC, package=b"new-zip"), remote=in_step()))
    assert plan.index("update_alias") < plan.index("delete_function")


def test_old_versions_are_pruned_best_effort_keeping_the_previous_live_one():
    plan = plan_tool_deploy(SPEC, remote=in_step(versions=("1", "2", "3", "4")))
    prunes = [s for s in plan if isinstance(s, ApiCall) and s.method == "delete_function"]
    assert [s.params["Qualifier"] for s in prunes] == ["1", "2"]
    assert all(s.best_effort for s in prunes)


def test_a_half_deployed_tool_gets_what_it_is_missing():
    # an earlier deploy stopped after creating the function: no alias, no URL, no permissions
    remote = in_step(live_version=None, versions=(), url_cors=None, statements=frozenset())
    plan = plan_tool_deploy(SPEC, remote)
    assert calls(plan) == [
        "publish_version",
        "wait:function_active_v2",
        "create_alias",
        "create_function_url_config",
        "add_permission",
        "add_permission",
    ]
    # on an existing function each new part has its own undo (deleting the function would take the old one)
    assert step(plan, "create_alias").undo == ApiCall("lambda", "delete_alias", {"FunctionName": NAME, "Name": "live"})
    assert step(plan, "create_function_url_config").undo.method == "delete_function_url_config"


def test_a_missing_permission_is_added_alone():
    plan = plan_tool_deploy(SPEC, remote=in_step(statements=frozenset({"toolgen-url"})))
    added = [s.params["StatementId"] for s in plan if isinstance(s, ApiCall) and s.method == "add_permission"]
    assert added == ["toolgen-url-invoke"]


def test_snapstart_applies_to_published_versions_and_can_be_turned_off():
    on = replace(SPEC, snapstart=True)
    assert step(plan_tool_deploy(on, None), "create_function").params["SnapStart"] == {"ApplyOn": "PublishedVersions"}
    remote = in_step(configuration={**on.configuration()})
    off = step(plan_tool_deploy(SPEC, remote), "update_function_configuration").params
    assert off["SnapStart"] == {"ApplyOn": "None"}


def test_provisioned_concurrency_is_put_on_the_alias_and_removed_when_no_longer_wanted():
    plan = plan_tool_deploy(replace(SPEC, provisioned=2), None)
    put = step(plan, "put_provisioned_concurrency_config")
    assert put.params == {"FunctionName": NAME, "Qualifier": "live", "ProvisionedConcurrentExecutions": 2}
    assert calls(plan).index("create_alias") < calls(plan).index("put_provisioned_concurrency_config")
    removed = step(plan_tool_deploy(SPEC, in_step(provisioned=2)), "delete_provisioned_concurrency_config")
    assert removed.params == {"FunctionName": NAME, "Qualifier": "live"}
    assert "provisioned" not in " ".join(calls(plan_tool_deploy(SPEC, in_step())))


def test_a_package_that_carries_the_runtime_gets_no_layer():
    inline = replace(SPEC, layer_arn="")
    assert step(plan_tool_deploy(inline, None), "create_function").params["Layers"] == []


def test_delete_plan_removes_the_function_and_everything_on_it():
    assert plan_tool_delete(NAME) == [ApiCall("lambda", "delete_function", {"FunctionName": NAME})]


def test_tools_are_called_through_their_live_alias():
    assert live(NAME) == f"{NAME}:live"


def test_tools_log_into_the_stacks_group_and_a_redeploy_reads_it_back_unchanged():
    spec = replace(SPEC, log_group="/toolgen/prod/tools")
    create = step(plan_tool_deploy(spec, None), "create_function").params
    assert create["LoggingConfig"] == {"LogFormat": "Text", "LogGroup": "/toolgen/prod/tools"}
    assert "update_function_configuration" not in calls(plan_tool_deploy(spec, in_step(spec)))
    moved = plan_tool_deploy(spec, in_step(SPEC))  # a tool made before: it moves to the stack's group
    assert step(moved, "update_function_configuration").params["LoggingConfig"]["LogGroup"] == "/toolgen/prod/tools"


def test_a_stack_name_too_long_for_tool_function_names_fails_the_deploy_saying_how_long_it_may_be():
    import pytest

    from toolgen.config import Settings
    from toolgen.errors import StageError
    from toolgen.intent import classify
    from toolgen.pipeline import _function_spec
    from toolgen.planner import OfflinePlanner

    program = OfflinePlanner().plan("a todo list", classify("a todo list"), []).program
    tool = "t" + "0" * 20
    ok = "s" * 37 + "-tool-"
    settings = Settings("t", tool_function_prefix=ok, secret_value="s")
    assert _function_spec(settings, program, ok + tool, tool, "ann", "TOOL#h").function_name
    long = "s" * 38 + "-tool-"
    with pytest.raises(StageError, match=r"65 characters.*at most 37 characters"):
        _function_spec(
            Settings("t", tool_function_prefix=long, secret_value="s"), program, long + tool, tool, "ann", "TOOL#h"
        )
