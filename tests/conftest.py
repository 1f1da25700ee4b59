import os

# Plots are drawn off screen in tests, whatever the machine.
os.environ.setdefault("MPLBACKEND", "Agg")
