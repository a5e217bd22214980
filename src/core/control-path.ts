// Where the control API lives, in a module of its own: the package's entry points
// export it without loading the simulator (decisions/0072).

/** Where the control API lives on a server's origin. */
export const CONTROL_BASE_PATH = '/__sim'
