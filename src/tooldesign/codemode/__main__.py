"""``python -m tooldesign.codemode``: the same command as ``tooldesign codemode`` (see cli.py)."""

from tooldesign.codemode.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
