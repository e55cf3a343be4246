import * as THREE from 'three';
import { ConvexGeometry } from 'three/examples/jsm/geometries/ConvexGeometry.js';
import type { ShapeSpec } from '../../sim/types.ts';
import type { BodyGeometry } from './protocol.ts';

/** Layer of solid body surfaces; depth and mask views draw this layer only. */
export const SOLID_LAYER = 1;

/** Highlight colour of rollback images; used for nothing else. */
export const HIGHLIGHT_COLOR = '#ff00ff';

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

function shapeGeometry(shape: ShapeSpec): THREE.BufferGeometry {
  switch (shape.type) {
    case 'box':
      return new THREE.BoxGeometry(2 * shape.half[0], 2 * shape.half[1], 2 * shape.half[2]);
    case 'ball':
      return new THREE.SphereGeometry(shape.radius, 48, 24);
    case 'cylinder':
      return new THREE.CylinderGeometry(shape.radius, shape.radius, 2 * shape.halfHeight, 48);
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

/** Builds the drawable object of one body, at the identity pose. */
export function buildBody(spec: BodyGeometry): BodyObject {
  const color = new THREE.Color(spec.color);
  const translucent = spec.opacity < 1;
  const hasMesh = spec.shapes.some((s) => s.type === 'mesh');
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
  for (const shape of spec.shapes) {
    const geometry = shapeGeometry(shape);
    const mesh = new THREE.Mesh(geometry, material);
    mesh.layers.enable(SOLID_LAYER);
    mesh.castShadow = !translucent;
    mesh.receiveShadow = true;
    const line = new THREE.LineSegments(new THREE.EdgesGeometry(geometry, EDGE_ANGLE), edgeMaterial);
    // Outlines after all faces: the result never depends on which was created first.
    line.renderOrder = 1;
    for (const obj of [mesh, line]) {
      if (shape.pose) {
        obj.position.fromArray(shape.pose.p);
        obj.quaternion.fromArray(shape.pose.q).normalize();
      }
      group.add(obj);
    }
    meshes.push(mesh);
    edges.push(line);
  }
  return { key: spec.key, group, meshes, edges, material, edgeMaterial };
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
