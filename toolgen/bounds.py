"""Bounds shared by the ToolProgram's checks, its OpenAPI document and the runtime (no imports: the runtime's
cold start reads this without pydantic)."""

MAX_NUMBER = 1e15  # the largest magnitude a tool accepts in a number field (the runtime refuses more)
MAX_ROUND_DIGITS = 15  # round()'s decimal places: a float holds 15 to 17 significant digits, more round nothing
