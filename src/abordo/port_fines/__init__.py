"""Port-labour fines: Lei nº 9.719/1998 art. 10 graded by Portaria MTE nº 746/2000.

``grade(data, options) -> Decision`` is the entry point; ``load_catalogue()`` gives Annex I.
"""

from abordo.port_fines.catalogue import Catalogue, Provision, load_catalogue
from abordo.port_fines.engine import grade, parse_input
from abordo.port_fines.model import FineInput

__all__ = ["Catalogue", "FineInput", "Provision", "grade", "load_catalogue", "parse_input"]
