// Package yarn reads, writes and checks YARN scheduler configuration files:
// capacity-scheduler.xml (the Capacity Scheduler: a Hadoop <configuration>
// of <property> elements) and the Fair Scheduler allocation file
// (fair-scheduler.xml). It imports nothing of schedplan's.
//
// ParseCapacityScheduler and ParseFairScheduler read a file into typed
// queue trees (capacities per node label, accessible labels, default node
// label expressions, user limit factors, states and queue mappings; weights,
// min/max resources, running-app limits, scheduling policies and the queue
// placement policy). They read values the way Apache Hadoop 3.4.1 reads them
// (CapacitySchedulerConfiguration, QueueNodeLabelsSettings,
// AllocationFileParser, AllocationFileQueueParser,
// FairSchedulerConfiguration.parseResourceConfigValue), so a simulator can
// replay a file with the meaning YARN gives it.
//
// The Check methods apply Hadoop's load-time rules, re-implemented from the
// 3.4.1 sources, and say which class and method each rule comes from (see
// Problem). A Problem is an Error when Hadoop refuses the file (3.4.1, or
// 2.x where 2.x was stricter: leaf queue names must be distinct, a queue's
// maximum capacity must cover its capacity), or when every application the
// file routes somewhere is refused or never gets a container (an inaccessible
// default node label expression, a queue mapping to a queue that does not
// exist). It is a Warning when Hadoop loads the file but ignores a setting or
// does something other than the file suggests (root's accessible-node-labels,
// a user whose queue the user placement rule cannot find).
//
// CleanName is the Fair Scheduler's mapping from a user or group name to a
// queue name (FairQueuePlacementUtils.cleanName: "alice.smith" becomes
// "alice_dot_smith"); FairScheduler.Place and CapacityScheduler.Place run the
// placement rules (queue placement policy, queue mappings) for one
// application.
package yarn
