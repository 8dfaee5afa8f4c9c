"""Inspection cases (inspection.md): a persisted, audited, multi-user workflow.

- :mod:`abordo.cases.commands` — states, refusals, the complaint and every command;
- :mod:`abordo.cases.checklist` — the procedure in force and the document checklist;
- :mod:`abordo.cases.steps` — what a case's data says now: open steps, duties, deadlines;
- :mod:`abordo.cases.transitions` — the guards and the one transition table;
- :mod:`abordo.cases.workflow` — a command applied to a case: commands → events;
  each command's effect is its handler in :mod:`abordo.cases.facts` (arts. 5–8, 13),
  :mod:`abordo.cases.acts` (arts. 4, 9–11) or :mod:`abordo.cases.autos` (arts. 2, 14),
  given the day it records and its context (:mod:`abordo.cases.act`);
- :mod:`abordo.cases.models` / :mod:`abordo.cases.db` — SQLAlchemy storage and migrations;
- :mod:`abordo.cases.audit` — append-only hash-chained event log;
- :mod:`abordo.cases.auth` — users, roles, regions, tokens and scope;
- :mod:`abordo.cases.service` — one transaction per command;
- documents (HTML/PDF) are rendered from the case by the reports face,
  :mod:`abordo.faces.reports.case_documents`.
"""

PROCEDURE_VERSION = "in-sit-70-2007"  # the workflow modelled; a case also records the
# procedure in force on its date of facts (abordo.cases.checklist.procedure_for)
