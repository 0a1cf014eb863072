"""``python -m mexitrain``: the same as the ``mexitrain`` command."""

from .cli import main

raise SystemExit(main())
