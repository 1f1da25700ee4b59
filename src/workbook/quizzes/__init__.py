"""Each lesson's quiz questions, one module per lesson (``lessonNN.QUIZ``), read by ``workbook.quiz.quiz``."""
