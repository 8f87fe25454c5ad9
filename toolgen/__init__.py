"""toolgen: a sentence becomes a small, personal, deployed web tool.

The package is the platform's library. It is installed in the shared base layer, imported by the thin Lambda
handlers in functions/, and by the `toolgen` CLI. No module reads os.environ at import time.
"""

__version__ = "0.1.0"
