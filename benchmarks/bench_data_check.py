"""What checking data files against their manifest costs on load.

Run: python benchmarks/bench_data_check.py
Prints medians on this machine: the check the first time a file is seen (hash), the memoised check
afterwards (two stat calls), and the pandas read it guards, for comparison.
"""
from __future__ import annotations


import pandas as pd

from timing import median_us  # benchmarks/timing.py, beside this script
from tooldesign.data import coldchain, files, sap
from tooldesign.tools.mirror import load_sap



def first_check(path) -> None:
    files._VERIFIED.clear()
    files.verified(path)


def main() -> None:
    orders, readings = sap.FOLDER / "sales_orders.csv", coldchain.FOLDER / "readings.json"
    rows = [
        ("check sales_orders.csv, first time (hash)", median_us(lambda: first_check(orders))),
        ("check sales_orders.csv, memoised", median_us(lambda: files.verified(orders))),
        ("pandas read of sales_orders.csv alone", median_us(lambda: pd.read_csv(orders, dtype=str,
                                                                                  keep_default_na=False))),
        ("check readings.json (49 KB), first time", median_us(lambda: first_check(readings))),
        ("check readings.json, memoised", median_us(lambda: files.verified(readings))),
        ("coldchain.readings() with its check", median_us(coldchain.readings, repeat=50)),
        ("load_sap() uncached: five checked tables", median_us(load_sap.__wrapped__, repeat=50)),
    ]
    for label, micros in rows:
        print(f"{label:<44} {micros:>9.1f} us")
    memo, read = rows[1][1], rows[2][1]
    print(f"memoised check / read: {memo / read:.1%} of the read it guards")


if __name__ == "__main__":
    main()
