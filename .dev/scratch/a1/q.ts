import { ROTATIONS, matToQuat, matApply } from '../../../tasks/assembly/a1-occluded-packing/geometry.ts';
import { qrotate } from '../../../sim/math.ts';
let bad = 0;
ROTATIONS.forEach((m, i) => {
  const q = matToQuat(m);
  for (const v of [[1,0,0],[0,1,0],[0,0,1],[1,2,3]] as [number,number,number][]) {
    const a = qrotate(q, v), b = matApply(m, v);
    if (a.some((x, k) => Math.abs(x - b[k]) > 1e-9)) { bad++; console.log(i, m.join(','), q, v, a, b); break; }
  }
});
console.log('bad', bad);
