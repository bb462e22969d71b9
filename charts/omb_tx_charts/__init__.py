"""Charts and reports from omb-tx (and stock OMB) result JSON; entry point: bin/charts."""
