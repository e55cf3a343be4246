/**
 * The baseline of bench/observe.ts: any scene description drawn by plain three.js, as a short
 * program written for one picture would draw it — every shape (drawn-only ones included) its
 * own mesh with its outline, lit standard materials, a shadowing key light (2048² map) over
 * the bodies, a fill light, the ground, rulers as a band, ticks and labelled sprites (all
 * labels shown: no occlusion test), antialiasing, captured with `toDataURL` as PNG. Meshes are
 * built once per body and then only moved, as the renderer's own page does. What the renderer
 * adds on top — checks, scene diffs, label occlusion and thinning, composition of strips and
 * panels, the trip to Node — is what a ratio against this measures.
 */
import * as THREE from 'three';
import { ConvexGeometry } from 'three/examples/jsm/geometries/ConvexGeometry.js';
import type { RulerSpec, SceneDescription, ShapeSpec } from '../../sim/types.ts';

/** A camera as plain numbers (bench/observe.ts fills it from `cameraFrame`). */
export interface BareCamera {
  position: number[];
  right: number[];
  up: number[];
  back: number[];
  fov: number;
  orthographic: boolean;
  orthoHeight: number;
}

/** A bare picture: base64 PNG, and the page's milliseconds drawing (pixels ready) and encoding. */
export interface BareFrame {
  png: string;
  drawMs: number;
  encodeMs: number;
}

interface BareSceneApi {
  frame(scene: SceneDescription, width: number, height: number, camera: BareCamera, depth: boolean): BareFrame;
}

const renderer = new THREE.WebGLRenderer({ antialias: true });
renderer.setPixelRatio(1);
renderer.shadowMap.enabled = true;
document.body.appendChild(renderer.domElement);
const scene = new THREE.Scene();
const perspective = new THREE.PerspectiveCamera();
const ortho = new THREE.OrthographicCamera();
const hemi = new THREE.HemisphereLight('#ffffff', '#8c877c', 1.3);
const key = new THREE.DirectionalLight('#ffffff', 2.4);
key.castShadow = true;
key.shadow.mapSize.set(2048, 2048);
const fill = new THREE.DirectionalLight('#ffffff', 0.5);
scene.add(hemi, key, key.target, fill);
const depthMaterial = new THREE.MeshDepthMaterial();
const onePixel = new Uint8Array(4);
const bodies = new Map<string, { key: string; group: THREE.Group }>();
let rulersKey = '';
let rulers: THREE.Group | null = null;
let ground: THREE.Mesh | null = null;

function geometry(s: ShapeSpec): THREE.BufferGeometry {
  switch (s.type) {
    case 'box':
      return new THREE.BoxGeometry(2 * s.half[0], 2 * s.half[1], 2 * s.half[2]);
    case 'ball':
      return new THREE.SphereGeometry(s.radius, 48, 24);
    case 'cylinder':
      return new THREE.CylinderGeometry(s.radius, s.radius, 2 * s.halfHeight, 48);
    case 'capsule':
      return new THREE.CapsuleGeometry(s.radius, 2 * s.halfHeight, 12, 48);
    case 'hull':
      return new ConvexGeometry(s.points.map((p) => new THREE.Vector3(p[0], p[1], p[2])));
    case 'mesh': {
      const g = new THREE.BufferGeometry();
      g.setAttribute('position', new THREE.Float32BufferAttribute(s.vertices.flat(), 3));
      g.setIndex(s.indices.flat());
      const flat = g.toNonIndexed();
      flat.computeVertexNormals();
      return flat;
    }
  }
}

function buildBody(b: SceneDescription['bodies'][number]): THREE.Group {
  const group = new THREE.Group();
  const material = new THREE.MeshStandardMaterial({ color: b.color, roughness: 0.75, transparent: b.opacity < 1, opacity: b.opacity });
  // A triangle soup has no promised winding: drawn from both sides, or faces would go missing.
  const soup = new THREE.MeshStandardMaterial({ color: b.color, roughness: 0.75, transparent: b.opacity < 1, opacity: b.opacity, side: THREE.DoubleSide });
  const edges = new THREE.LineBasicMaterial({ color: '#222222' });
  for (const s of [...b.shapes, ...(b.visual ?? [])]) {
    const g = geometry(s);
    const mesh = new THREE.Mesh(g, s.type === 'mesh' ? soup : material);
    mesh.castShadow = b.opacity >= 1;
    mesh.receiveShadow = true;
    const line = new THREE.LineSegments(new THREE.EdgesGeometry(g, 25), edges);
    for (const o of [mesh, line]) {
      if (s.pose) {
        o.position.fromArray(s.pose.p);
        o.quaternion.fromArray(s.pose.q);
      }
      group.add(o);
    }
  }
  return group;
}

function labelSprite(text: string): THREE.Sprite {
  const canvas = document.createElement('canvas');
  const ctx = canvas.getContext('2d')!;
  ctx.font = 'bold 45px sans-serif';
  canvas.width = Math.ceil(ctx.measureText(text).width + 28);
  canvas.height = 64;
  ctx.font = 'bold 45px sans-serif';
  ctx.fillStyle = 'rgba(255,255,255,0.88)';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = '#111111';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText(text, canvas.width / 2, canvas.height / 2);
  const texture = new THREE.CanvasTexture(canvas);
  texture.colorSpace = THREE.SRGBColorSpace;
  const sprite = new THREE.Sprite(new THREE.SpriteMaterial({ map: texture, depthTest: false }));
  sprite.userData.aspect = canvas.width / canvas.height;
  return sprite;
}

/** Band, line, ticks every `minor` (longer every `major`) and a label per major tick. */
function buildRulers(specs: RulerSpec[]): THREE.Group {
  const group = new THREE.Group();
  const lineMaterial = new THREE.LineBasicMaterial({ color: '#111111' });
  for (const r of specs) {
    const from = new THREE.Vector3(...r.from);
    const to = new THREE.Vector3(...r.to);
    const along = to.clone().sub(from);
    const length = along.length();
    along.normalize();
    const tick = (r.tickDir ? new THREE.Vector3(...r.tickDir) : new THREE.Vector3(0, 1, 0).cross(along).normalize()).normalize();
    const minor = r.minor ?? 0.01;
    const major = r.major ?? 0.1;
    const points: THREE.Vector3[] = [from, to];
    const n = Math.floor(length / minor + 1e-6);
    for (let i = 0; i <= n; i++) {
      const at = from.clone().addScaledVector(along, i * minor);
      const isMajor = Math.abs((i * minor) / major - Math.round((i * minor) / major)) < 1e-6;
      points.push(at, at.clone().addScaledVector(tick, (isMajor ? 0.25 : 0.1) * major));
      if (isMajor) {
        const label = labelSprite(i === 0 ? '0' : `${Math.round((i * minor) * 100)} cm`);
        const h = 0.2 * major;
        label.scale.set(h * (label.userData.aspect as number), h, 1);
        label.position.copy(at).addScaledVector(tick, 0.45 * major);
        group.add(label);
      }
    }
    group.add(new THREE.LineSegments(new THREE.BufferGeometry().setFromPoints(points), lineMaterial));
    const band = new THREE.Mesh(
      new THREE.PlaneGeometry(length, 0.3 * major),
      new THREE.MeshBasicMaterial({ color: '#f4f1e8', side: THREE.DoubleSide }),
    );
    band.position.copy(from).addScaledVector(along, length / 2).addScaledVector(tick, 0.15 * major);
    band.quaternion.setFromRotationMatrix(new THREE.Matrix4().makeBasis(along, tick, along.clone().cross(tick)));
    group.add(band);
  }
  return group;
}

function sync(desc: SceneDescription): void {
  const seen = new Set<string>();
  for (const b of desc.bodies) {
    seen.add(b.name);
    const k = JSON.stringify([b.shapes, b.visual ?? null, b.color, b.opacity]);
    let entry = bodies.get(b.name);
    if (!entry || entry.key !== k) {
      if (entry) scene.remove(entry.group);
      entry = { key: k, group: buildBody(b) };
      bodies.set(b.name, entry);
      scene.add(entry.group);
    }
    entry.group.position.fromArray(b.pose.p);
    entry.group.quaternion.fromArray(b.pose.q);
    entry.group.visible = b.visible;
  }
  for (const [name, entry] of bodies) {
    if (!seen.has(name)) {
      scene.remove(entry.group);
      bodies.delete(name);
    }
  }
  const rk = JSON.stringify(desc.rulers);
  if (rk !== rulersKey) {
    if (rulers) scene.remove(rulers);
    rulers = buildRulers(desc.rulers);
    scene.add(rulers);
    rulersKey = rk;
  }
  if (desc.ground && !ground) {
    ground = new THREE.Mesh(new THREE.PlaneGeometry(1, 1), new THREE.MeshStandardMaterial({ color: desc.ground.color ?? '#c9c3b8' }));
    ground.rotation.x = -Math.PI / 2;
    ground.receiveShadow = true;
    scene.add(ground);
  }
  if (ground) {
    ground.visible = !!desc.ground;
    ground.position.y = desc.ground?.y ?? 0;
    const size = desc.ground?.size ?? 20;
    ground.scale.set(size, size, 1);
  }
}

/** Distance from `from` to the farthest corner of `box`. */
function farthestCorner(box: THREE.Box3, from: THREE.Vector3): number {
  let far = 0;
  const c = new THREE.Vector3();
  for (let i = 0; i < 8; i++) {
    c.set(i & 1 ? box.max.x : box.min.x, i & 2 ? box.max.y : box.min.y, i & 4 ? box.max.z : box.min.z);
    far = Math.max(far, c.distanceTo(from));
  }
  return far;
}

const api: BareSceneApi = {
  frame(desc, width, height, cam, depth) {
    const started = performance.now();
    sync(desc);
    if (renderer.domElement.width !== width || renderer.domElement.height !== height) renderer.setSize(width, height, false);
    const box = new THREE.Box3();
    for (const { group } of bodies.values()) if (group.visible) box.expandByObject(group);
    // The far plane takes in the ground too, so the picture shows as much ground as the renderer's.
    const seen = box.clone();
    if (ground?.visible) seen.expandByObject(ground);
    const sphere = box.isEmpty() ? new THREE.Sphere(new THREE.Vector3(), 1) : box.getBoundingSphere(new THREE.Sphere());
    const r = Math.max(sphere.radius, 1e-3);
    key.target.position.copy(sphere.center);
    key.position.copy(sphere.center).add(new THREE.Vector3(0.5, 1.4, 0.8).normalize().multiplyScalar(3 * r));
    Object.assign(key.shadow.camera, { left: -r, right: r, top: r, bottom: -r, near: 0.5 * r, far: 6 * r });
    key.shadow.camera.updateProjectionMatrix();
    const camera = cam.orthographic ? ortho : perspective;
    camera.position.fromArray(cam.position);
    camera.quaternion.setFromRotationMatrix(
      new THREE.Matrix4().makeBasis(new THREE.Vector3().fromArray(cam.right), new THREE.Vector3().fromArray(cam.up), new THREE.Vector3().fromArray(cam.back)),
    );
    const far = seen.isEmpty() ? 100 : farthestCorner(seen, camera.position) + 1;
    if (cam.orthographic) {
      const h = cam.orthoHeight / 2;
      Object.assign(ortho, { left: (-h * width) / height, right: (h * width) / height, top: h, bottom: -h, near: 0.001, far });
    } else {
      Object.assign(perspective, { fov: cam.fov, aspect: width / height, near: 0.005, far });
    }
    camera.updateProjectionMatrix();
    fill.position.copy(camera.position);
    if (depth) {
      scene.overrideMaterial = depthMaterial;
      scene.background = new THREE.Color('#000000');
      if (rulers) rulers.visible = false;
      if (ground) ground.visible = false;
    } else {
      scene.background = new THREE.Color(desc.background ?? '#e6eaef');
    }
    renderer.render(scene, camera);
    scene.overrideMaterial = null;
    if (rulers) rulers.visible = true;
    // Reading one pixel waits for the drawing (as the renderer's page does), to time it apart.
    const gl = renderer.getContext();
    gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, onePixel);
    const drawn = performance.now();
    const url = renderer.domElement.toDataURL('image/png');
    return { png: url.slice(url.indexOf(',') + 1), drawMs: drawn - started, encodeMs: performance.now() - drawn };
  },
};

(window as unknown as { __bareScene: BareSceneApi }).__bareScene = api;
