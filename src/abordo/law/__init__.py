"""The legal core: norms, dated parameters, decisions, day arithmetic. No domain knowledge."""

from abordo.law.calendar import (
    add_business_days,
    add_days,
    add_years,
    business_days_between,
    days_between,
)
from abordo.law.decision import (
    Citation,
    Decision,
    Finding,
    Interpretation,
    Msg,
    TraceStep,
    UnconfirmedParameter,
    Verdict,
)
from abordo.law.errors import AbordoError, InputError
from abordo.law.norms import Norm, NormRegistry, norm_registry
from abordo.law.params import ParamValue, dated_value

__all__ = [
    "AbordoError",
    "Citation",
    "Decision",
    "Finding",
    "InputError",
    "Interpretation",
    "Msg",
    "Norm",
    "NormRegistry",
    "ParamValue",
    "TraceStep",
    "UnconfirmedParameter",
    "Verdict",
    "add_business_days",
    "add_days",
    "add_years",
    "business_days_between",
    "dated_value",
    "days_between",
    "norm_registry",
]
