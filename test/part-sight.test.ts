/**
 * The part-sight kit (tasks/kits/part-sight): the exact ray–rectangle caster against
 * three-mesh-bvh, what a wall hides of a hand-built part, the "same picture" test for another
 * shape a part could have, and both against the real renderer: the alternative scene the kit
 * says looks the same from the first view draws (almost) the same pixels there and different
 * ones from elsewhere, and per-part pixel estimates match what the renderer shows.
 */
import { expect } from 'chai';
import * as THREE from 'three';
import { MeshBVH } from 'three-mesh-bvh';
import type { CameraSpec } from '../render/camera-spec.ts';
import { decodePng } from '../render/pixels.ts';
import { Renderer } from '../render/renderer.ts';
import { cameraFrame } from '../render/camera-frame.ts';
import { mirrorCells } from '../solvers/polycube-chirality.ts';
import { yawQuat } from '../sim/math.ts';
import type { SceneDescription } from '../sim/types.ts';
import { World } from '../sim/world.ts';
import { consistentPlacement } from '../tasks/kits/part-sight/alternatives.ts';
import { PartsSight, regrid } from '../tasks/kits/part-sight/parts.ts';
import { boxPatches, PICTURE_SIZE, SurfaceSight, type Patch } from '../tasks/kits/part-sight/surface.ts';
import { buildTableScene, frameCamera, plateFor, sceneSight, tableUnder, type TablePart, type TableScene, type Wall } from '../tasks/kits/part-sight/table-scene.ts';
import { Rng } from '../core/rng.ts';
import type { Cell } from '../solvers/polycube.ts';

/** An asymmetric chiral pentacube standing on the table. */
const SHAPE: Cell[] = [
  [0, 0, 0],
  [1, 0, 0],
  [2, 0, 0],
  [2, 1, 0],
  [2, 1, 1],
];

/** Visible samples of every patch by three-mesh-bvh ray casting (the reference implementation). */
function bvhVisible(patches: Patch[], camera: CameraSpec, grid: number): number[] {
  const positions = new Float32Array(patches.length * 12);
  const index = new Uint32Array(patches.length * 6);
  patches.forEach((p, i) => {
    [[-1, -1], [1, -1], [1, 1], [-1, 1]].forEach(([s, t], k) => positions.set([0, 1, 2].map((a) => p.centre[a] + s * p.u[a] + t * p.v[a]), (i * 4 + k) * 3));
    index.set([i * 4, i * 4 + 1, i * 4 + 2, i * 4, i * 4 + 2, i * 4 + 3], i * 6);
  });
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', new THREE.BufferAttribute(positions, 3));
  geometry.setIndex(new THREE.BufferAttribute(index, 1));
  const bvh = new MeshBVH(geometry);
  const f = cameraFrame(camera);
  const tanHalf = Math.tan((20 * Math.PI) / 180);
  const ray = new THREE.Ray(new THREE.Vector3(...f.position));
  return patches.map((p) => {
    const toEye = [0, 1, 2].map((a) => f.position[a] - p.centre[a]);
    if (p.normal[0] * toEye[0] + p.normal[1] * toEye[1] + p.normal[2] * toEye[2] <= 1e-9) return 0;
    let seen = 0;
    for (let a = 0; a < grid; a++) {
      for (let b = 0; b < grid; b++) {
        const s = (2 * (a + 0.5)) / grid - 1;
        const t = (2 * (b + 0.5)) / grid - 1;
        const d = [0, 1, 2].map((k) => p.centre[k] + s * p.u[k] + t * p.v[k] - f.position[k]);
        const depth = -(d[0] * f.back[0] + d[1] * f.back[1] + d[2] * f.back[2]);
        const x = d[0] * f.right[0] + d[1] * f.right[1] + d[2] * f.right[2];
        const y = d[0] * f.up[0] + d[1] * f.up[1] + d[2] * f.up[2];
        if (depth <= 0 || Math.abs(x) > tanHalf * depth || Math.abs(y) > tanHalf * depth) continue;
        const dist = Math.hypot(d[0], d[1], d[2]);
        ray.direction.set(d[0] / dist, d[1] / dist, d[2] / dist);
        const hit = bvh.raycastFirst(ray, THREE.DoubleSide, 0, dist + 1e-4);
        if (hit?.face && patches[Math.floor(hit.face.a / 4)].owner === p.owner) seen++;
      }
    }
    return seen;
  });
}

/** A table scene of one part with an optional wall in front, on the +z side, seen from the front. */
function onePart(cells: Cell[], wall: Wall | null): TableScene {
  const part: TablePart = { letter: 'A', cells, yawDeg: 20, at: [0, 0], base: 0 };
  const plates = [plateFor(part, 0.15, 0)];
  const walls = wall ? [wall] : [];
  return { parts: [part], stands: [], walls, plates, table: tableUnder({ parts: [part], stands: [], walls, plates }) };
}

describe('part-sight kit', function () {
  this.timeout(300000);

  it('the exact caster agrees with three-mesh-bvh sample for sample on a cluttered scene', () => {
    const rng = new Rng('part-sight/boxes');
    const patches: Patch[] = [];
    for (let i = 0; i < 30; i++) {
      const half: [number, number, number] = [rng.range(0.01, 0.04), rng.range(0.01, 0.04), rng.range(0.01, 0.04)];
      patches.push(...boxPatches(half, { p: [rng.range(-0.25, 0.25), half[1], rng.range(-0.25, 0.25)], q: yawQuat(rng.int(0, 359)) }, i));
    }
    const sight = new SurfaceSight(patches);
    let differing = 0;
    let total = 0;
    for (const camera of [
      { azimuth: 0, elevation: 20, distance: 0.9, target: [0, 0.02, 0] },
      { azimuth: 130, elevation: 45, distance: 0.8, target: [0.05, 0, 0] },
      { azimuth: -70, elevation: 5, distance: 1.1, target: [0, 0.03, -0.05] },
    ] as CameraSpec[]) {
      const want = bvhVisible(patches, camera, 6);
      patches.forEach((_, i) => {
        const got = sight.sightPatch(camera, i, 6, false).visible;
        total += want[i];
        differing += Math.abs(got - want[i]);
      });
    }
    expect(total).to.be.greaterThan(1000);
    // Float32 triangles against exact rectangles: only grazing samples on shared edges may differ.
    expect(differing / total).to.be.below(0.002);
  });

  it('a wall in front hides the part\'s lower cubes from the front and not from behind', () => {
    const wall: Wall = { half: [0.08, 0.03, 0.004], pose: { p: [0, 0.03, 0.075], q: [0, 0, 0, 1] } };
    const sight = sceneSight(onePart(SHAPE, wall));
    const front: CameraSpec = { azimuth: 0, elevation: 10, distance: 0.8, target: [0, 0.03, 0] };
    const back: CameraSpec = { ...front, azimuth: 180 };
    const low = SHAPE.filter((c) => c[1] === 0).map((c) => c.join(','));
    const seenFront = sight.cells(front, 0);
    expect(low.filter((k) => seenFront.get(k)!.glimpsed)).to.have.length.below(low.length);
    const seenBack = sight.clearCells(back, 0);
    expect(low.some((k) => seenBack.has(k))).to.equal(true);
  });

  it('finds a mirror-image placement the first view cannot rule out behind a tall wall, and none without the wall', () => {
    const camera: CameraSpec = { azimuth: 0, elevation: 15, distance: 0.9, target: [0, 0.03, 0] };
    const open = sceneSight(onePart(SHAPE, null));
    expect(consistentPlacement(open, camera, 0, mirrorCells(SHAPE))).to.equal(null);
    const rng = new Rng('part-sight/wall');
    let found: { wall: Wall; alt: Cell[] } | null = null;
    for (let t = 0; t < 200 && !found; t++) {
      const h = rng.range(0.05, 0.1);
      const wall: Wall = { half: [rng.range(0.04, 0.07), h / 2, 0.004], pose: { p: [rng.range(-0.03, 0.03), h / 2, rng.range(0.06, 0.085)], q: yawQuat(rng.int(-25, 25)) } };
      const alt = consistentPlacement(sceneSight(onePart(SHAPE, wall)), camera, 0, mirrorCells(SHAPE));
      if (alt) found = { wall, alt };
    }
    expect(found, 'no wall hides the hand').to.not.equal(null);
  });

  describe('against the real renderer', function () {
    const SIZE = 384;
    const renderer = new Renderer({ width: SIZE, height: SIZE });
    after(async () => {
      await renderer.close();
    });

    async function sceneOf(s: TableScene, paint?: (name: string) => string | null): Promise<SceneDescription> {
      const world = await World.create();
      try {
        buildTableScene(world, s);
        const bodies = world.describe().map((b) => {
          const c = paint?.(b.name);
          return c === undefined || c === null ? b : { ...b, color: c };
        });
        return { bodies, rulers: [] };
      } finally {
        world.free();
      }
    }

    async function pixels(scene: SceneDescription, camera: CameraSpec): Promise<{ data: Buffer; channels: number }> {
      const img = await decodePng(await renderer.render(scene, camera));
      return { data: img.data, channels: img.channels };
    }

    it('the alternative the kit accepts draws the same first picture and a different one from behind', async () => {
      const camera: CameraSpec = { azimuth: 0, elevation: 15, distance: 0.9, target: [0, 0.03, 0] };
      const rng = new Rng('part-sight/wall');
      let pair: { s: TableScene; alt: Cell[] } | null = null;
      for (let t = 0; t < 200 && !pair; t++) {
        const h = rng.range(0.05, 0.1);
        const wall: Wall = { half: [rng.range(0.04, 0.07), h / 2, 0.004], pose: { p: [rng.range(-0.03, 0.03), h / 2, rng.range(0.06, 0.085)], q: yawQuat(rng.int(-25, 25)) } };
        const s = onePart(SHAPE, wall);
        const alt = consistentPlacement(sceneSight(s), camera, 0, mirrorCells(SHAPE));
        if (alt) pair = { s, alt };
      }
      expect(pair).to.not.equal(null);
      const { s, alt } = pair!;
      // The alternative in the part's own grid, built as a body like any part.
      const altScene: TableScene = { ...s, parts: [regrid(s.parts[0], alt)] };
      const a = await sceneOf(s);
      const b = await sceneOf(altScene);
      const diff = async (cam: CameraSpec): Promise<number> => {
        const pa = await pixels(a, cam);
        const pb = await pixels(b, cam);
        let n = 0;
        for (let i = 0; i < SIZE * SIZE; i++) {
          const d = [0, 1, 2].reduce((m, k) => Math.max(m, Math.abs(pa.data[i * pa.channels + k] - pb.data[i * pb.channels + k])), 0);
          if (d > 40) n++;
        }
        return n / (SIZE * SIZE);
      };
      const first = await diff(camera);
      const behind = await diff({ ...camera, azimuth: 180, elevation: 35 });
      // Shadows of the changed cubes may fall where the camera looks: allow a sliver.
      expect(first, `first view differs in ${(first * 100).toFixed(2)} % of pixels`).to.be.below(0.004);
      expect(behind).to.be.above(0.004);
    });

    it('per part, the pixels the renderer shows match the kit\'s estimate', async () => {
      const rng = new Rng('part-sight/estimate');
      const parts: TablePart[] = [0, 1, 2].map((i) => ({ letter: 'ABC'[i], cells: SHAPE, yawDeg: rng.int(0, 359), at: [(i - 1) * 0.12, (i % 2) * -0.08], base: 0 }));
      const plates = parts.map((p) => plateFor(p, 0.12, 0));
      const walls: Wall[] = [{ half: [0.05, 0.03, 0.004], pose: { p: [0, 0.03, 0.07], q: yawQuat(10) } }];
      const s: TableScene = { parts, stands: [], walls, plates, table: tableUnder({ parts, stands: [], walls, plates }) };
      const sight = new PartsSight(parts, walls);
      for (const camera of [frameCamera(s, 0, 20), frameCamera(s, 60, 40)]) {
        for (const p of parts) {
          const red = await sceneOf(s, (n) => (n === `part-${p.letter}` ? '#ff0000' : '#000000'));
          red.background = '#000000';
          const img = await decodePng(await renderer.render(red, camera));
          let shown = 0;
          for (let i = 0; i < SIZE * SIZE; i++) {
            const r = img.data[i * img.channels];
            if (r > 40 && r > 2 * img.data[i * img.channels + 1] + 20 && r > 2 * img.data[i * img.channels + 2] + 20) shown++;
          }
          const est = sight.seenPixels(camera, parts.indexOf(p)) * (SIZE / PICTURE_SIZE) ** 2;
          expect(Math.abs(shown - est), `${p.letter} at azimuth ${camera.azimuth}: rendered ${shown}, estimated ${est.toFixed(0)}`).to.be.at.most(0.15 * Math.max(shown, est) + 20);
        }
      }
    });
  });
});
