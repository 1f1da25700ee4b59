"""What lessons 16 and 17 cost in time: one scripted task, the technique table, one poisoned record, the defence table.

Run: python benchmarks/bench_loop_injection.py
Prints medians of repeated runs on this machine; the figures vary between machines. The tables
themselves are cached inside the lessons' widgets, so a learner pays these once per notebook.
"""
from __future__ import annotations


from timing import median_ms  # benchmarks/timing.py, beside this script
from tooldesign.injection import attack, measure as defences, reader
from tooldesign.loop import measure as techniques, run_task



def main() -> None:
    run_task("mirror")  # warm the data caches so file reading is not timed
    note = attack.seeded_notes()[0]
    rows = [
        ("lesson 16: the four-step task, mirrored results", median_ms(lambda: run_task("mirror"))),
        ("lesson 16: the technique table (8 runs)", median_ms(techniques.techniques, repeat=5)),
        ("lesson 17: one poisoned record through the gate", median_ms(
            lambda: attack.run_record(note, "raw", reader.LITERAL, True))),
        ("lesson 17: the defence table, uncached (7 settings x 24 runs, and the lint)", median_ms(
            lambda: (defences.outcomes.cache_clear(), defences.defence_rows()), repeat=3)),
    ]
    width = max(len(name) for name, _ in rows)
    for name, ms in rows:
        print(f"{name:<{width}}  {ms:8.1f} ms")


if __name__ == "__main__":
    main()
