# The notebooks under class/ are submissions to grade, some built to hang or crash a kernel:
# pytest (and nbval, which collects every .ipynb it is shown) must never run them as tests.
collect_ignore_glob = ["*"]
