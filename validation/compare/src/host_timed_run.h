// The runner's event-timed host loop as simulator operations: record(start), the run, record(stop), host calls.
#pragma once

#include "gpusched/workloads/application.h"

namespace gpusched::validation {

/// `app` as the runner times it: one host thread records the start event on stream 0, forks
/// streams 1..streams-1 from it (record on 0, a wait on each), issues the application's own
/// operations, joins the streams back into stream 0 (a record on each, a wait on 0) and records
/// the stop event; every one of these is a host call (workloads::HostIssue::calls). The
/// simulated makespan is then the event time between start and stop.
workloads::Application event_timed_host_calls(workloads::Application app, int streams = 1);

}  // namespace gpusched::validation
