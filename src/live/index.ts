// model-access-sim/live (Node only): a live model-access service, read with GETs only. Bring an
// account into a world spec (`importWorld`), and check the simulator's rules against the service
// (`checkService`). A management key given to either is sent only as a bearer header to the
// service's own base URL, and never written, printed or logged.
export { importWorld, type ImportWorldOptions, type ImportedHandles, type ImportedWorld, type ImportProgress } from './import.js'
export { checkService, formatReport, type CheckServiceOptions, type CheckReport, type CheckResult, type CheckVerdict } from './check.js'
