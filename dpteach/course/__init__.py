"""The course wing: homework for a course that grades, and its grading, for instructors.

Nothing here is imported by ``import dpteach``. Its verbs are the ``dpteach`` command's (:mod:`dpteach.cli`)::

    dpteach course ...      # the hand-out and what the instructor keeps (make course)
    dpteach grade ...       # grade the collected notebooks (make grade)
    dpteach gradebook ...   # write the gradebook again, with the instructor's overrides

Building a course:

* :mod:`.assign`: the course (each student's notebooks, the book, what a course repository installs) and
  the course file the grader reads; :mod:`.edition`: one chapter's course edition; :mod:`.roster`: the
  students, from an LMS's export.

Grading (one core, thin front ends), in the order a submission meets them:

* :mod:`.model`: the shapes (a :class:`~.model.Place` a file's name is read into, a chapter's
  :class:`~.model.Assignment` of exercises (:class:`~.model.Exercise`) at a student's numbers, a :class:`~.model.Record`);
* :mod:`.grading`: a run's face; :mod:`.manifest`: the course file; :mod:`.names`: every rule that reads a
  file's name (which files, whose, which chapter); :mod:`.overrides`: the instructor's changes; :mod:`.batch`:
  the class in parallel workers;
* :mod:`.submission`: one notebook's story: :mod:`.reading` (parsed once), :mod:`.identity` (made for whom, for
  which chapter), :mod:`.running` (its cells in a sandbox: :mod:`.sandbox`, :mod:`.inside`, :mod:`.plain`),
  :mod:`.judging` (each exercise by its checker; a function on hidden cases in :mod:`.functions`, read by
  :mod:`.reach`);
* the front ends, taking records: :mod:`.gradebook` (the writer) with :mod:`.store` (each student's records
  across runs), :mod:`.exports` (the gradebooks' tables, Canvas's and Moodle's imports), :mod:`.pages` (the
  feedback pages and the class report), :mod:`.terminal` (the summary); :mod:`.gradescope` (Gradescope's
  autograder: one submission, ``results.json``).

It builds on the publishing wing (:mod:`dpteach.publish`: the project's folders, the editions, the
book), never the other way.
"""
