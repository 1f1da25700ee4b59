"""The instructor's grader: ``python -m workbook grade SUBMISSIONS``.

What a score rests on, and why no trick inside a notebook can move it:

* Only the answer cells of a submission are used, matched by nbgrader grade_id. The notebook
  that runs is rebuilt from solutions/ in its released form; check cells, lesson cells,
  metadata and outputs of the submission are never used, so editing or deleting a check cell,
  or printing a success line, changes nothing.
* Each submission runs in a fresh kernel in a throw-away copy of the course (``sandbox``), inside
  bubblewrap when it is installed: no network, read-only system, no solutions/, no home.
* Answers leave the kernel as signed plain text through ``user_expressions`` (``kernel``,
  ``probe``): no input transformer touches that path, the code that reads them was loaded
  before the learner's and uses builtins captured then, types are compared by identity (an
  ``__eq__`` or a metaclass cannot pretend), and a value rewritten on its way out fails the
  signature. Functions are called on the exercise's probes inside the kernel; only what they
  return comes out.
* The verdict is made here, in the grader's process, on plain data converted again with
  ``workbook.plain.to_plain``: redefined ``check`` functions or patched modules in the kernel
  take no part in it.
* Hidden checks (``--extra-checks``) add probes a learner has never seen: a function that only
  memorised the public probes fails them.

Limits, stated plainly: learner code shares a process with the extractor, so code written
against this grader's internals (walking the garbage collector for the signing key) is beyond an
in-process check; the gradebook's "review" notes point at answer cells that reach for such
machinery. There are no memory or disk quotas on the kernel.
"""
from workbook.grade.batch import Report, grade

__all__ = ["Report", "grade"]
