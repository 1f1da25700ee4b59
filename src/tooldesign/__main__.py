"""``python -m tooldesign``: the course's command line (see tooldesign.cli)."""

from tooldesign.cli import main

raise SystemExit(main())
