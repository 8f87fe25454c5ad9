"""Learning from use (issue 16): patterns in a tool's rows, and the revisions they suggest.

Pure functions over a program, its rows and the person's facts: no I/O, no clock. The platform decides when to mine,
keeps patterns as memories, shows drafts as suggestions and applies an accepted one as a revision.
"""

from toolgen.learn.patterns import Pattern, mine
from toolgen.learn.suggest import Draft, propose

__all__ = ["Draft", "Pattern", "mine", "propose"]
