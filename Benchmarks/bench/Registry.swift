/// Every workload `bench` knows, in the order `bench` with no names runs them.
/// Later files add theirs here, e.g. `+ sqliteWorkloads`.
let allWorkloads: [Workload] =
    predicateWorkloads + storeWorkloads + nestedSaveWorkloads + migrationWorkloads + batchWorkloads + smallSaveWorkloads
    + typedWorkloads + memoryWorkloads
