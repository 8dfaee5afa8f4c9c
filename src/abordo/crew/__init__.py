"""People aboard: the rank table, the vessel-case input model and crew-list import.

Public API::

    load_vessel_case(path) -> VesselCase          # YAML/JSON, crew inline or crew_file
    parse_vessel_case(data, base_dir, source) -> VesselCase
    resolve_crew(case) -> list[CrewMember]         # nationality, department, level, position
"""

from abordo.crew.load import load_vessel_case, parse_vessel_case
from abordo.crew.model import (
    Activity,
    AjbPeriod,
    Contract,
    CrewInput,
    Operation,
    Vessel,
    VesselCase,
)
from abordo.crew.ranks import CrewMember, RankTable, rank_table, resolve_crew

__all__ = [
    "Activity",
    "AjbPeriod",
    "Contract",
    "CrewInput",
    "CrewMember",
    "Operation",
    "RankTable",
    "Vessel",
    "VesselCase",
    "load_vessel_case",
    "parse_vessel_case",
    "rank_table",
    "resolve_crew",
]
