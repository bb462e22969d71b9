"""The seed study on top of the charts: the figures the seed benchmarks published (seeds 000-004), judged against the
results (catalogue, seeds, judge, findings, finding_tables, setup), Kafka since the seeds (evolution) and the
transports beside seed 004 (transports). The report reaches it at one place: ``report.compute_report`` calls
``section.seed_study``, which returns the study's one section, or the line saying it was left out."""
