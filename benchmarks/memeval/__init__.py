"""memchat's memory evaluation (issues 7 and 8): personas, probes, judging, the baseline, the table."""
