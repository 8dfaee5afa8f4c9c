"""Portuguese / English labels of the input vocabulary (activities, contracts, registries,
positions), for text meant for people — engine explanations and reports alike; codes stay
in JSON."""

from __future__ import annotations

from babel import Locale

LABELS: dict[str, tuple[str, str]] = {
    # activities (glossary.md)
    "offshore_support": ("apoio marítimo", "offshore support"),
    "exploration": ("prospecção/perfuração/produção", "exploration/drilling/production"),
    "platform": ("plataforma", "platform"),
    "cabotage": ("cabotagem", "cabotage"),
    "port_support": ("apoio portuário", "port support"),
    "inland_national": ("navegação interior de percurso nacional", "national inland navigation"),
    "inland_international": ("navegação interior de percurso internacional",
                             "international inland navigation"),
    "regasification": ("regaseificação de GNL", "LNG regasification"),
    "cruise": ("cruzeiro", "cruise"),
    "fishing": ("pesca", "fishing"),
    "long_haul": ("longo curso", "long haul"),
    # contracts
    "charter": ("afretamento", "charter"),
    "services": ("prestação de serviços", "services contract"),
    "risk": ("contrato de risco", "risk contract"),
    "lease": ("arrendamento", "lease"),
    "none": ("sem contrato", "no contract"),
    # registries and positions
    "ordinary": ("registro ordinário", "ordinary registry"),
    "REB": ("REB", "REB"),
    "master": ("comandante", "master"),
    "chief_engineer": ("chefe de máquinas", "chief engineer"),
    # plan status
    "past": ("superada", "superseded"),
    "current": ("em vigor", "in force"),
    "suspended": ("suspensa — fora das AJB", "suspended — outside AJB"),
    "future": ("futura", "future"),
    "beyond_regime": ("após o fim da norma — não coberta", "after the norm ends — not covered"),
    "overtaken": ("não se aplica — a etapa maior vale antes",
                  "does not apply — a higher step applies first"),
    "after_stay": ("após o fim da estada — não se aplica",
                   "after the stay ended — does not apply"),
}


def label(code: str | None, lang: str = "pt") -> str:
    """The label of ``code`` in ``lang``; the code itself when unknown."""
    if code is None:
        return "—"
    pt, en = LABELS.get(code, (code, code))
    return en if lang == "en" else pt


def country(code: str | None, lang: str = "pt") -> str:
    """``NO`` → ``Noruega (NO)`` (CLDR names through Babel); the code when unknown."""
    if not code:
        return "—"
    name = Locale.parse("pt_BR" if lang == "pt" else "en").territories.get(code.upper())
    return f"{name} ({code})" if name else code
