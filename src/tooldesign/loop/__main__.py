"""``python -m tooldesign.loop``: the same command as ``tooldesign loop`` (tooldesign.loop.cli)."""

from tooldesign.loop.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
