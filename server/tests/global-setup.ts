import { compileServer } from './helpers/compile';

/** Compiles the server once for the whole run; the workers then boot server/dist as it is (helpers/compile.ts). */
export default function setup() {
  compileServer();
}
