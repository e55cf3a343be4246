/**
 * The baseline of bench/render.ts: the same 50-part scene drawn by plain three.js in the same
 * browser, with what the renderer also draws (lit standard materials, a shadowing key light,
 * outlines, antialiasing) and captured the same way (toDataURL PNG). No scene diffing, no
 * checks, no rulers: what is left is the cost of drawing and encoding.
 */
import * as THREE from 'three';
import { ConvexGeometry } from 'three/examples/jsm/geometries/ConvexGeometry.js';
import type { SceneDescription } from '../../sim/types.ts';

interface BareApi {
  init(scene: SceneDescription, width: number, height: number): void;
  frame(poses: number[], camera: { position: number[]; target: number[]; fov: number }): string;
}

let renderer: THREE.WebGLRenderer;
let scene: THREE.Scene;
let camera: THREE.PerspectiveCamera;
const groups: THREE.Group[] = [];

const api: BareApi = {
  init(desc, width, height) {
    renderer = new THREE.WebGLRenderer({ antialias: true });
    renderer.setPixelRatio(1);
    renderer.setSize(width, height, false);
    renderer.shadowMap.enabled = true;
    document.body.appendChild(renderer.domElement);
    scene = new THREE.Scene();
    scene.background = new THREE.Color('#e6eaef');
    camera = new THREE.PerspectiveCamera(40, width / height, 0.05, 20);
    scene.add(new THREE.HemisphereLight('#ffffff', '#8c877c', 1.3));
    const key = new THREE.DirectionalLight('#ffffff', 2.4);
    key.position.set(0.5, 1.4, 0.8).multiplyScalar(3);
    key.castShadow = true;
    key.shadow.mapSize.set(2048, 2048);
    Object.assign(key.shadow.camera, { left: -1.2, right: 1.2, top: 1.2, bottom: -1.2, near: 0.5, far: 8 });
    key.shadow.camera.updateProjectionMatrix();
    scene.add(key, new THREE.DirectionalLight('#ffffff', 0.5));
    if (desc.ground) {
      const ground = new THREE.Mesh(new THREE.PlaneGeometry(8, 8), new THREE.MeshStandardMaterial({ color: '#c9c3b8' }));
      ground.rotation.x = -Math.PI / 2;
      ground.position.y = desc.ground.y;
      ground.receiveShadow = true;
      scene.add(ground);
    }
    for (const b of desc.bodies) {
      const group = new THREE.Group();
      const material = new THREE.MeshStandardMaterial({ color: b.color, roughness: 0.75 });
      const edgeMaterial = new THREE.LineBasicMaterial({ color: '#222222' });
      for (const s of b.shapes) {
        const geometry =
          s.type === 'box'
            ? new THREE.BoxGeometry(2 * s.half[0], 2 * s.half[1], 2 * s.half[2])
            : s.type === 'cylinder'
              ? new THREE.CylinderGeometry(s.radius, s.radius, 2 * s.halfHeight, 48)
              : s.type === 'ball'
                ? new THREE.SphereGeometry(s.radius, 48, 24)
                : s.type === 'hull'
                  ? new ConvexGeometry(s.points.map((p) => new THREE.Vector3(...p)))
                  : new THREE.BufferGeometry();
        const mesh = new THREE.Mesh(geometry, material);
        mesh.castShadow = true;
        mesh.receiveShadow = true;
        group.add(mesh, new THREE.LineSegments(new THREE.EdgesGeometry(geometry, 25), edgeMaterial));
      }
      scene.add(group);
      groups.push(group);
    }
  },
  frame(poses, cam) {
    for (let i = 0; i < groups.length; i++) {
      groups[i].position.set(poses[7 * i], poses[7 * i + 1], poses[7 * i + 2]);
      groups[i].quaternion.set(poses[7 * i + 3], poses[7 * i + 4], poses[7 * i + 5], poses[7 * i + 6]);
    }
    camera.position.fromArray(cam.position);
    camera.fov = cam.fov;
    camera.updateProjectionMatrix();
    camera.lookAt(new THREE.Vector3().fromArray(cam.target));
    renderer.render(scene, camera);
    const url = renderer.domElement.toDataURL('image/png');
    return url.slice(url.indexOf(',') + 1);
  },
};

(window as unknown as { __bare: BareApi }).__bare = api;
