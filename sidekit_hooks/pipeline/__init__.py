"""One hook invocation, in order: the entry (hook) reads Claude Code's event once, the event table
(hook_events) says what runs for it, the runtime runs the sidecars under the deadline and hands
findings to the policy and the queue, and delivers; lifecycle (SessionStart, compaction, Stop),
finish (the work a hook could not end in time) and feed_worker (a raw test run's output into the
cache) complete it."""
