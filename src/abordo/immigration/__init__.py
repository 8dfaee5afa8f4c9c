"""Immigration status of foreign crew (immigration.md) and the boarding document checklist
(inspection.md).

``evaluate(case, on, options) -> Decision`` judges every foreign person aboard on a date;
``abordo.immigration.checklist.evaluate(case, on, options) -> Decision`` lists the documents
to request at the boarding (IN SIT 70/2007 arts. 5, 7 and 13).
"""

from abordo.immigration.engine import evaluate

__all__ = ["evaluate"]
