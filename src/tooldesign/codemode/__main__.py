"""Print the code-mode lesson's figures: ``python -m tooldesign.codemode [runs|limit|verify|all]``."""
from __future__ import annotations

import argparse
import logging
import sys

import pandas as pd

from tooldesign.codemode import coldchain_tools as cc
from tooldesign.codemode import runs, sizelimit
from tooldesign.codemode.catalog import catalog_for, model_tool_names
from tooldesign.codemode.registry import Registry


def show_runs() -> None:
    table = runs.compare_runs()
    columns = ["run", "model tool calls", "calls inside the program", "chars into context", "tokens (estimate)"]
    print("Three runs, measured by the course's harness (scripted stand-in, characters):")
    print(table[columns].to_string(index=False))
    print("answers:", " / ".join(sorted(set(table["answer"]))))
    print("\nThe same runs with a real model, as reported by the lesson's source (not measured here):")
    print(runs.REPORTED.to_string(index=False))


def show_limit() -> None:
    for order, catalog in sizelimit.two_orders().items():
        print(f"registry {order} ({sizelimit.ORDERS[order]}):")
        print(catalog.report(), end="\n\n")
    print(sizelimit.three_ways().to_string(index=False))


def show_verify() -> None:
    with Registry() as registry:
        cc.register(registry, access={cc.LIST: "code", cc.READINGS: "code", cc.LIMITS: "both"})
        for row in registry.verify():
            print(f"{row[0]:<20} {row[1]:<8} {row[2]}")
        print("model's own tools:", ", ".join(model_tool_names(registry)))
        print(f"catalog: {catalog_for(registry).size_bytes:,} bytes")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tooldesign.codemode", description=__doc__)
    parser.add_argument("what", nargs="?", default="all", choices=["runs", "limit", "verify", "all"])
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s", stream=sys.stdout)
    pd.set_option("display.width", 160)
    shows = {"runs": [show_runs], "limit": [show_limit], "verify": [show_verify],
             "all": [show_verify, show_runs, show_limit]}[args.what]
    for number, show in enumerate(shows):
        if number:
            print("\n" + "-" * 72 + "\n")
        show()
    return 0


if __name__ == "__main__":
    sys.exit(main())
