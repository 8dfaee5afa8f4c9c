"""The consequence of a foreign vessel's quota deficit: the auto de infração of IN SIT
70/2007 art. 14 (CLT art. 444), as the procedure in force on the date allows."""

from __future__ import annotations

from typing import Any

from abordo.crew.model import Contract
from abordo.law.calendar import add_days
from abordo.law.decision import Msg
from abordo.law.text import br_date as _d
from abordo.quota.context import Context
from abordo.quota.regimes import regime_tables


def consequence(ctx: Context, result: dict[str, Any]) -> None:
    """IN SIT 70/2007 art. 14: auto de infração against the Brazilian contracting company,
    CLT art. 444, ementa 001139-8."""
    t = regime_tables()
    clt = ctx.reg.cite(t.consequence_clt.norm, t.consequence_clt.provision)
    proc_norm = ctx.reg[t.consequence_procedure.norm]
    proc = ctx.reg.cite(t.consequence_procedure.norm, t.consequence_procedure.provision) \
        if proc_norm.in_force_on(ctx.on) else None
    op = ctx.case.operation
    company = op.brazilian_company
    who = company.name if company and company.name else "a empresa brasileira contratante"
    who_en = company.name if company and company.name else "the Brazilian contracting company"
    # Art. 14 names one offender, "a empresa brasileira contratante da embarcação estrangeira",
    # and crew-quota.md (Output) no other. A vessel with no contract and no company given (a
    # cruise ship, RN 71/2006, whose quota asks for no contract) has none to name: the
    # offender is to be identified, never presumed.
    unknown = op.contract is Contract.NONE and not (company and (company.name or company.cnpj))
    if unknown:
        who = "a empresa brasileira contratante da embarcação estrangeira, a identificar"
        who_en = "the Brazilian company that contracted the foreign vessel, to be identified"
    ctx.b.cite(clt)
    if proc is not None:
        ctx.b.cite(proc)
        if not unknown:
            text = Msg(f"Lavrar auto de infração contra {who} por infração ao art. 444 da CLT "
                       f"(ementa {t.ementa}).",
                       f"Issue an infraction notice (auto de infração) against {who_en} for "
                       f"breach of CLT art. 444 (infraction code {t.ementa}).")
        else:
            text = Msg(f"Auto de infração por infração ao art. 444 da CLT (ementa {t.ementa}): "
                       "a IN SIT 70/2007, art. 14, o dirige à empresa brasileira contratante "
                       "da embarcação estrangeira, mas nenhum contrato nem empresa contratante "
                       "foi informado — identifique a autuada antes de lavrar o auto.",
                       f"Infraction notice (auto de infração) for breach of CLT art. 444 "
                       f"(infraction code {t.ementa}): IN SIT 70/2007 art. 14 addresses it to "
                       "the Brazilian company that contracted the foreign vessel, but no "
                       "contract or contracting company was given — identify the offender "
                       "before issuing it.")
        status = "in_force"
    elif ctx.on < proc_norm.in_force_from:
        # Before IN SIT 70/2007 the procedure was IN SIT 19/2000, which is not modelled.
        start = proc_norm.in_force_from
        text = Msg(f"O procedimento de inspeção então vigente (IN SIT nº 19/2000) não está "
                   f"modelado; a IN SIT 70/2007, art. 14 (auto de infração contra {who}, CLT "
                   f"art. 444, ementa {t.ementa}), só vigora a partir de {_d(start)}.",
                   f"The inspection procedure then in force (IN SIT nº 19/2000) is not "
                   f"modelled; IN SIT 70/2007 art. 14 (infraction notice against {who_en}, CLT "
                   f"art. 444, code {t.ementa}) is in force only from {start.isoformat()}.")
        status = "not_modelled"
        ctx.b.step("consequence.procedure", text.pt, text.en, ctx.reg.cite("in-sit-19-2000"))
    else:
        # The procedure that named this auto was revoked; its successor is not modelled, so
        # the consequence is reported as the last modelled one, never as current law.
        revoked = add_days(proc_norm.in_force_to, 1)  # type: ignore[arg-type]
        text = Msg(f"Procedimento previsto na IN SIT 70/2007, art. 14 (auto de infração contra "
                   f"{who}, CLT art. 444, ementa {t.ementa}); revogada com efeitos a partir de "
                   f"{_d(revoked)} — o "
                   "procedimento vigente (IN MTP nº 2/2021) não está modelado.",
                   f"Procedure of IN SIT 70/2007 art. 14 (infraction notice against {who_en}, "
                   f"CLT art. 444, code {t.ementa}); revoked with effect from "
                   f"{revoked.isoformat()} — the current procedure (IN MTP nº 2/2021) is not "
                   "modelled.")
        status = "not_modelled"
        ctx.b.step("consequence.procedure", text.pt, text.en,
                   ctx.reg.cite(proc_norm.replaced_by) if proc_norm.replaced_by else None)
    result["consequences"] = [{"id": "auto_de_infracao_clt_444", "text": text, "status": status,
                               "ementa": t.ementa, "citations": [c for c in (clt, proc) if c]}]
