"""Stage 5, deploy: a tool becomes its own Lambda function on the shared base layer.

Planning is pure (plan.py: ToolProgram and remote state in, a list of API calls out) and tested as data;
execution (execute.py) makes the calls, waits for the function to be Active, and rolls back on failure.
"""

from toolgen.deploy.execute import Deployed, Deployer
from toolgen.deploy.package import tool_package
from toolgen.deploy.plan import FunctionSpec, plan_tool_deploy

__all__ = ["Deployed", "Deployer", "FunctionSpec", "plan_tool_deploy", "tool_package"]
