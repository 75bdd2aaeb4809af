"""``bleu-score --ask-humans FILE.json``: the chosen segments written as a Pearmut campaign, the work it asks, and
how many segments the run's first metric says a campaign needs to separate each pair of the systems asked about."""

from __future__ import annotations

import numpy as np

from ..core import InputError, Run
from ..core.analysis.human_sample import document_rows, quantile_rows, random_rows, segments_needed
from ..core.output.human_campaign import CampaignAsk, CampaignPlan, hours_text, plan_campaign, system_indices, write_campaign
from .arguments import Options
from .campaign_arguments import AskHumans


def _chosen_rows(o: Options, run: Run) -> tuple[list[int], str]:
    """The rows ``--where`` chooses (all without it), and how, in words."""
    from ..core.where import where_rows

    if not o.where:
        return list(range(run.n_sentences)), f"all {run.n_sentences:,} segments of the run"
    rows, said = where_rows(run, o.where)
    return list(rows), said


def _sampled(ask: AskHumans, run: Run, rows: list[int], systems: list[int]) -> tuple[list[int], str]:
    if ask.sample is None:
        return rows, ""
    how = ask.sample_by
    if how == "random":
        return random_rows(rows, ask.sample, ask.seed), f"{ask.sample:,} at random (seed {ask.seed})"
    if how == "document":
        if run.context.docs is None:
            raise InputError("--sample-by document: the run has no documents (--docs, or a format that has them)")
        return (document_rows(rows, run.context.docs, ask.sample, ask.seed),
                f"whole documents at random until {ask.sample:,} segments (seed {ask.seed})")
    try:
        k = run.metric_index(how)
    except KeyError:
        raise InputError(f"--sample-by {how}: random, document, or a metric of the run "
                         f"({', '.join(m.name for m in run.metrics)})") from None
    with np.errstate(invalid="ignore"):
        mean = np.nanmean(np.stack([run.systems[s].results[k].sentences for s in systems]), axis=0)
    return (quantile_rows(rows, [float(x) for x in mean], ask.sample, ask.seed),
            f"{ask.sample:,} in equal shares of five quantile bins of {run.metrics[k].name} (seed {ask.seed})")


def _deciding_metric(ask: AskHumans, run: Run) -> int:
    """The metric whose segment scores estimate the campaign's size: ``--sample-by``'s when it names one, else the
    run's first."""
    try:
        return run.metric_index(ask.sample_by)
    except KeyError:
        return 0


def _needed(run: Run, plan: CampaignPlan, k: int, seed: int) -> list[str]:
    """Per pair of the systems asked about: how many segments metric ``k`` needs to separate them."""
    if len(plan.systems) < 2:
        return []
    rows = plan.rows
    lines = [f"segments a campaign needs to separate two systems (the estimate of {run.metrics[k].name}'s segment "
             "scores on the chosen segments: a paired t-test at p < 0.05 in 80% of 1,000 bootstrap samples; the "
             "humans will disagree with the metric and with each other: a floor, not a promise)"]
    for n, a in enumerate(plan.systems):
        for b in plan.systems[n + 1:]:
            found = segments_needed(run.systems[a].results[k].sentences[rows], run.systems[b].results[k].sentences[rows],
                                    seed)
            said = f"{found:,}" if found is not None else "more than 5,000 (the metric sees them as equal)"
            lines.append(f"  {run.systems[a].name} vs {run.systems[b].name}: {said}")
    return lines


def ask_the_humans(o: Options, run: Run) -> None:
    """Write ``--ask-humans``'s campaign and its mapping file, and print what it asks."""
    ask = o.humans
    assert ask is not None
    rows, chosen = _chosen_rows(o, run)
    systems = list(system_indices(run, ask.systems))
    rows, sampled = _sampled(ask, run, rows, systems)
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
    for line in _needed(run, plan, _deciding_metric(ask, run), ask.seed):
        print(line)
