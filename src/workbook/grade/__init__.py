"""The instructor's grader: ``.venv/bin/workbook grade SUBMISSIONS`` (or ``make grade``).

What a score rests on, and why nothing a learner's kernel can reach tells it an answer:

* Only the answer cells of a submission are used, matched by nbgrader grade_id. The notebook
  that runs is rebuilt from solutions/ in its released form; check cells, lesson cells,
  metadata and outputs of the submission are never used. A link or special file is refused.
* The kernel sees only the *student edition* (``workbook.handout``): no solutions/, no lesson
  answer keys, no registry of references, every graded function of ``tooldesign`` stubbed, no
  grader. Expected values and references stay in the grader's process.
* Function exercises are judged on the lesson's fixed edge cases and on inputs drawn at grade time
  from a secret seed of the run, whose right results the reference computes here: memorising any
  probe a learner could see cannot pass.
* Whatever leaves the kernel is a claim of a value, not evidence: parsed as a literal outside,
  converted again with ``workbook.plain.to_plain`` and judged here. There is no key in the kernel
  to steal, because nothing the kernel says is believed beyond the plain value it claims.
* Kernels run in bubblewrap (no network, read-only system, no view of the repository, the output
  folder or home, their own PID namespace), under quotas (memory, disk, output, time), and after
  each file every process they started is killed and their folder removed. Without bubblewrap the
  grader refuses unless told ``--no-sandbox``; then rows say ``unsandboxed`` and learner code has
  the instructor's rights while it runs, so those scores are not to be trusted.
"""

from workbook.grade.batch import Report, grade
from workbook.grade.options import GradeOptions

__all__ = ["GradeOptions", "Report", "grade"]
