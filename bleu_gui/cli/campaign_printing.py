"""``bleu-score --ask-humans FILE.json``: the chosen segments written as a Pearmut campaign, the work it asks, and
how many segments the run's first metric says a campaign needs to separate each pair of the systems asked about."""

from __future__ import annotations

from ..core import Run
from ..core.output.campaign_choice import (
    ALL_PAIRS_UP_TO,
    NEEDED_SAID,
    Sample,
    chosen_rows,
    deciding_metric,
    pairs_needed,
    sampled_rows,
)
from ..core.output.human_campaign import CampaignAsk, CampaignPlan, hours_text, plan_campaign, system_indices, write_campaign
from .arguments import Options


def _needed(run: Run, plan: CampaignPlan, k: int, seed: int) -> list[str]:
    """Per pair of the systems asked about: how many segments metric ``k`` needs to separate them."""
    if len(plan.systems) < 2:
        return []
    neighbours = len(plan.systems) > ALL_PAIRS_UP_TO
    lines = [f"segments a campaign needs to separate two systems{' (neighbours in its ranking)' if neighbours else ''} "
             f"(the estimate of {run.metrics[k].name}: {NEEDED_SAID})"]
    for need in pairs_needed(run, plan.systems, plan.rows, k, seed):
        said = f"{need.segments:,}" if need.segments is not None else "more than 5,000 (the metric sees them as equal)"
        lines.append(f"  {run.systems[need.a].name} vs {run.systems[need.b].name}: {said}")
    return lines


def ask_the_humans(o: Options, run: Run) -> None:
    """Write ``--ask-humans``'s campaign and its mapping file, and print what it asks."""
    ask = o.humans
    assert ask is not None
    rows, chosen = chosen_rows(run, o.where)
    systems = list(system_indices(run, ask.systems))
    rows, sampled = sampled_rows(run, rows, systems, Sample(ask.sample, ask.sample_by, ask.seed))
    how = chosen + (f"; of them {sampled}" if sampled else "")
    plan = plan_campaign(run, rows, CampaignAsk(ask.protocol, ask.systems, ask.raters, ask.per_rater, ask.documents,
                                                ask.seed, "", ask.words_per_hour, how))
    path, beside = write_campaign(run, plan, ask.out, ask.overwrite, run.input_paths())
    e = plan.estimate
    print(f"campaign {path.stem}: {path} (pearmut add {path.name}); which file and line each item is: {beside}")
    print(f"  chosen: {how}")
    print(f"  {e.segments:,} segments in {len(plan.documents):,} documents × {e.systems} systems "
          f"({', '.join(run.systems[s].name for s in plan.systems)}) × {e.raters_per_item} "
          f"rater{'s' if e.raters_per_item > 1 else ''} each = {e.ratings:,} ratings, {plan.ask.protocol.upper()}; "
          f"{len(plan.tasks):,} task{'s' if len(plan.tasks) > 1 else ''} ({', '.join(plan.raters[:4])}"
          f"{', …' if len(plan.tasks) > 4 else ''})")
    print(f"  work: {e.source_words:,} source words read (each translation apart) ≈ {hours_text(e.hours)} at "
          f"{e.words_per_hour:,.0f} words an hour")
    for line in _needed(run, plan, deciding_metric(run, ask.sample_by), ask.seed):
        print(line)
