"""Fleet screening: every vessel of a fleet judged at once on the crew-quota rules, ranked by
likely non-compliance (interfaces.md, "Batch").

Public API::

    screen(folder, on, options=None, horizon=None, keep_going=False) -> ScreenResult
    write_result(frame, path)                       # .parquet or .csv, atomic
    check_result_path(path, excel)                  # write_result's refusals, before a run
    read_fleet(folder) -> Fleet                     # vessels + crew tables, or case files
    summary(frame) -> dict                          # counts by verdict, top vessels

The columnar evaluation reads its figures from the same dated tables as the single-vessel
engine (:mod:`abordo.quota`) and routes the rows it cannot decide to that engine; a test
runs both on the same fleet and compares every row (``tests/batch/test_equivalence.py``).
"""

from abordo.batch.fleet import Fleet, read_fleet
from abordo.batch.ranking import rank, summary
from abordo.batch.screening import ScreenResult, check_result_path, screen, write_result

__all__ = ["Fleet", "ScreenResult", "check_result_path", "rank", "read_fleet", "screen",
           "summary", "write_result"]
