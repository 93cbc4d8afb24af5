import { compileServerIfStale } from './helpers/compile';

/** Compiles the server once for the whole run (unless server/dist is current); the workers boot it as it is (helpers/compile.ts). */
export default function setup() {
  compileServerIfStale({ fromDist: true });
}
