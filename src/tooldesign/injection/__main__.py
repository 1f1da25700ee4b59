"""``python -m tooldesign.injection``: the same command as ``tooldesign injection`` (see cli.py)."""

from tooldesign.injection.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
