"""Sea time (cômputo de tempo de embarque), NORMAM-101/DPC items 1.26–1.29.

``compute(input, on, options) -> Decision`` counts the days of sea time of one seafarer for
one purpose (promotion, course enrolment, certificate revalidation) on the request date, and
explains every day that did not count. ``load_input(path)`` reads YAML/JSON/CSV/XLSX inputs.
"""

from abordo.sea_time.engine import compute
from abordo.sea_time.io import input_schema, load_input, resolve_files
from abordo.sea_time.model import SeaTimeInput, parse_input

__all__ = ["SeaTimeInput", "compute", "input_schema", "load_input", "parse_input",
           "resolve_files"]
