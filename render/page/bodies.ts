import * as THREE from 'three';
import { ConvexGeometry } from 'three/examples/jsm/geometries/ConvexGeometry.js';
import { mergeGeometries } from 'three/examples/jsm/utils/BufferGeometryUtils.js';
import type { ShapeSpec } from '../../sim/types.ts';
import type { BodyGeometry } from './protocol.ts';

/** Layer of solid body surfaces; depth and mask views draw this layer only. */
export const SOLID_LAYER = 1;

/** Highlight colour of rollback images (the part that moved or failed); used for nothing else. */
export const HIGHLIGHT_COLOR = '#ff00ff';
/** Tint of the other bodies of a violation in rollback images (what the moving part hit). */
export const OTHER_COLOR = '#00c8ff';
/** Tint and marker colour of the target of a refused action in rollback images. */
export const TARGET_COLOR = '#ffb000';
/** How far a tinted body's colour moves towards its tint. */
const TINT = 0.6;

/** Edges sharper than this (degrees) get a dark outline, so boxes and hulls read as solids. */
const EDGE_ANGLE = 25;

/** A body as the page holds it. */
export interface BodyObject {
  key: string;
  group: THREE.Group;
  meshes: THREE.Mesh[];
  edges: THREE.LineSegments[];
  material: THREE.MeshStandardMaterial;
  edgeMaterial: THREE.LineBasicMaterial;
}

/**
 * Segments around a round shape. Drawn-only shapes are small details that come by the hundred
 * (a 50-brick wall has 400 studs), so they get 16: the fewest whose side faces meet at less than
 * the outline angle (22.5° < 25°), so no outline runs down a stud's side. A 400-stud wall drew at
 * 0.36× the speed of the bare wall with 48 segments and at ≈ 0.6× with 16 (bench/render.ts).
 */
const ROUND_SEGMENTS = { body: 48, detail: 16 };

function shapeGeometry(shape: ShapeSpec, detail = false): THREE.BufferGeometry {
  const n = detail ? ROUND_SEGMENTS.detail : ROUND_SEGMENTS.body;
  switch (shape.type) {
    case 'box':
      return new THREE.BoxGeometry(2 * shape.half[0], 2 * shape.half[1], 2 * shape.half[2]);
    case 'ball':
      return new THREE.SphereGeometry(shape.radius, n, n / 2);
    case 'cylinder':
      return new THREE.CylinderGeometry(shape.radius, shape.radius, 2 * shape.halfHeight, n);
    case 'capsule':
      // three.js's capsule also runs along Y, its `height` the straight middle part.
      return new THREE.CapsuleGeometry(shape.radius, 2 * shape.halfHeight, n / 4, n);
    case 'hull':
      return new ConvexGeometry(shape.points.map((p) => new THREE.Vector3(p[0], p[1], p[2])));
    case 'mesh': {
      const indexed = new THREE.BufferGeometry();
      indexed.setAttribute('position', new THREE.Float32BufferAttribute(shape.vertices.flat(), 3));
      indexed.setIndex(shape.indices.flat());
      // Un-indexed so every triangle gets its own normal: meshes here are hard-edged parts.
      const flat = indexed.toNonIndexed();
      indexed.dispose();
      flat.computeVertexNormals();
      return flat;
    }
  }
}

/** Outline colour: darker than a light body, lighter than a dark one (lightness as people see it, sRGB). */
function edgeColor(color: THREE.Color): THREE.Color {
  const hsl = { h: 0, s: 0, l: 0 };
  color.getHSL(hsl, THREE.SRGBColorSpace);
  const out = color.clone();
  return hsl.l > 0.2 ? out.multiplyScalar(0.25) : out.lerp(new THREE.Color(1, 1, 1), 0.3);
}

// Scratch objects for building merged geometry.
const shapeMatrix = new THREE.Matrix4();
const shapePosition = new THREE.Vector3();
const shapeQuaternion = new THREE.Quaternion();
const UNIT_SCALE = new THREE.Vector3(1, 1, 1);

/** A shape's faces and outline, baked into its body frame, with position and normal only, unindexed. */
function bakedShape(shape: ShapeSpec): { faces: THREE.BufferGeometry; outline: THREE.BufferGeometry } {
  const source = shapeGeometry(shape, true);
  const faces = source.index ? source.toNonIndexed() : source.clone();
  source.dispose();
  for (const name of Object.keys(faces.attributes)) if (name !== 'position' && name !== 'normal') faces.deleteAttribute(name);
  if (shape.pose) {
    shapePosition.fromArray(shape.pose.p);
    shapeQuaternion.fromArray(shape.pose.q).normalize();
    faces.applyMatrix4(shapeMatrix.compose(shapePosition, shapeQuaternion, UNIT_SCALE));
  }
  return { faces, outline: new THREE.EdgesGeometry(faces, EDGE_ANGLE) };
}

/**
 * The drawn-only shapes of a body (a brick's studs: dozens of small cylinders) merged into one
 * face geometry and one outline geometry, so they cost two draw calls instead of two per shape.
 */
function mergedVisual(shapes: ShapeSpec[]): { faces: THREE.BufferGeometry; outline: THREE.BufferGeometry } {
  const parts = shapes.map(bakedShape);
  const faces = mergeGeometries(parts.map((p) => p.faces));
  const outline = mergeGeometries(parts.map((p) => p.outline));
  for (const p of parts) {
    p.faces.dispose();
    p.outline.dispose();
  }
  if (!faces || !outline) throw new Error('could not merge the visual shapes of a body');
  return { faces, outline };
}

/**
 * Builds the drawable object of one body, at the identity pose. Drawn-only `visual` shapes are
 * drawn like the body's own shapes (same material, outlines, shadows, depth and mask layer),
 * merged into one mesh.
 */
export function buildBody(spec: BodyGeometry): BodyObject {
  const color = new THREE.Color(spec.color);
  const translucent = spec.opacity < 1;
  const visual = spec.visual ?? [];
  const hasMesh = spec.shapes.some((s) => s.type === 'mesh') || visual.some((s) => s.type === 'mesh');
  const material = new THREE.MeshStandardMaterial({
    color,
    roughness: 0.75,
    metalness: 0,
    transparent: translucent,
    opacity: spec.opacity,
    depthWrite: !translucent,
    side: hasMesh ? THREE.DoubleSide : THREE.FrontSide,
    // Faces sit slightly behind their own outline so the outline wins the depth test.
    polygonOffset: true,
    polygonOffsetFactor: 1,
    polygonOffsetUnits: 1,
  });
  const edgeMaterial = new THREE.LineBasicMaterial({
    color: edgeColor(color),
    transparent: translucent,
    opacity: spec.opacity,
    depthWrite: !translucent,
  });
  const group = new THREE.Group();
  group.name = spec.name;
  const meshes: THREE.Mesh[] = [];
  const edges: THREE.LineSegments[] = [];
  const add = (faces: THREE.BufferGeometry, outline: THREE.BufferGeometry, pose?: ShapeSpec['pose']): void => {
    const mesh = new THREE.Mesh(faces, material);
    mesh.layers.enable(SOLID_LAYER);
    mesh.castShadow = !translucent;
    mesh.receiveShadow = true;
    const line = new THREE.LineSegments(outline, edgeMaterial);
    // Outlines after all faces: the result never depends on which was created first.
    line.renderOrder = 1;
    for (const obj of [mesh, line]) {
      if (pose) {
        obj.position.fromArray(pose.p);
        obj.quaternion.fromArray(pose.q).normalize();
      }
      group.add(obj);
    }
    meshes.push(mesh);
    edges.push(line);
  };
  for (const shape of spec.shapes) {
    const geometry = shapeGeometry(shape);
    add(geometry, new THREE.EdgesGeometry(geometry, EDGE_ANGLE), shape.pose);
  }
  if (visual.length) {
    const merged = mergedVisual(visual);
    add(merged.faces, merged.outline);
  }
  return { key: spec.key, group, meshes, edges, material, edgeMaterial };
}

/**
 * Face and outline materials of `body` tinted towards `tint`: its own colour mixed with the
 * tint, a little glow of the tint so it reads in shadow, and outlines in the tint's dark shade.
 * The caller disposes them.
 */
export function tintedMaterials(body: BodyObject, tint: string): [BodyObject, THREE.MeshStandardMaterial, THREE.LineBasicMaterial] {
  const t = new THREE.Color(tint);
  const face = body.material.clone();
  face.color.lerp(t, TINT);
  face.emissive.copy(t);
  face.emissiveIntensity = 0.25;
  const edge = body.edgeMaterial.clone();
  edge.color.copy(t).multiplyScalar(0.35);
  edge.userData.tint = tint;
  return [body, face, edge];
}

/** Frees a body's GPU resources. */
export function disposeBody(body: BodyObject): void {
  for (const m of body.meshes) m.geometry.dispose();
  for (const e of body.edges) e.geometry.dispose();
  body.material.dispose();
  body.edgeMaterial.dispose();
}

/**
 * Numbers the body's drawables by scene order; the page's sort functions use this number as
 * the last tie-breaker, so pictures do not depend on the order bodies were created in.
 */
export function setBodySequence(body: BodyObject, index: number): void {
  let k = 0;
  for (const obj of body.group.children) obj.userData.seq = index * 4096 + k++;
}
