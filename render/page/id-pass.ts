import * as THREE from 'three';
import { SOLID_LAYER, type BodyObject } from './bodies.ts';

/** Depth is stored in 16 bits between the camera's near and far planes. */
const DEPTH_STEPS = 65535;

const vertexShader = /* glsl */ `
  varying float vDepth;
  void main() {
    vec4 mv = modelViewMatrix * vec4(position, 1.0);
    vDepth = -mv.z;
    gl_Position = projectionMatrix * mv;
  }`;
const fragmentShader = /* glsl */ `
  uniform float uId;
  uniform float uNear;
  uniform float uFar;
  varying float vDepth;
  void main() {
    float d = floor(clamp((vDepth - uNear) / (uFar - uNear), 0.0, 1.0) * ${DEPTH_STEPS.toFixed(1)} + 0.5);
    float hi = floor(d / 256.0);
    gl_FragColor = vec4(mod(uId, 256.0), floor(uId / 256.0), hi, d - hi * 256.0) / 255.0;
  }`;

/**
 * An id buffer with depth: every visible body drawn unlit in its own id (1-based scene index,
 * 16 bits in red and green) with its linear view depth (16 bits in blue and alpha), no
 * antialiasing, into a render target that is read back whole. Background is id 0. Used to
 * count what a camera really sees of each body (occlusion included), to test whether a ruler
 * label's tick is hidden behind a body, and to outline highlighted bodies.
 */
export class IdPass {
  private target: THREE.WebGLRenderTarget | null = null;
  private readonly materials: THREE.ShaderMaterial[] = [];
  /** RGBA bytes of the last pass, GL rows (bottom to top). */
  pixels = new Uint8Array(0);
  width = 0;
  height = 0;
  near = 0;
  far = 1;
  /** Bodies in id order (`ids[k - 1]` has id k) of the last pass. */
  ids: BodyObject[] = [];
  /** The last pass's render target (id texture), for shaders that read it. */
  get texture(): THREE.Texture | null {
    return this.target?.texture ?? null;
  }

  private material(index: number): THREE.ShaderMaterial {
    while (this.materials.length <= index) {
      this.materials.push(
        new THREE.ShaderMaterial({
          uniforms: { uId: { value: this.materials.length + 1 }, uNear: { value: 0 }, uFar: { value: 1 } },
          vertexShader,
          fragmentShader,
          blending: THREE.NoBlending,
          side: THREE.DoubleSide,
        }),
      );
    }
    return this.materials[index];
  }

  /**
   * Draws the id buffer of `bodies` (in scene order; invisible ones keep their id but are not
   * drawn) seen by `camera` (which must have its near/far planes set) and reads it back.
   */
  draw(renderer: THREE.WebGLRenderer, scene: THREE.Scene, camera: THREE.OrthographicCamera | THREE.PerspectiveCamera, bodies: BodyObject[], width: number, height: number): void {
    if (!this.target || this.target.width !== width || this.target.height !== height) {
      this.target?.dispose();
      this.target = new THREE.WebGLRenderTarget(width, height, { samples: 0, depthBuffer: true, minFilter: THREE.NearestFilter, magFilter: THREE.NearestFilter });
      this.pixels = new Uint8Array(width * height * 4);
    }
    this.width = width;
    this.height = height;
    this.near = camera.near;
    this.far = camera.far;
    this.ids = bodies;
    const swapped: [THREE.Mesh, THREE.Material | THREE.Material[]][] = [];
    bodies.forEach((b, i) => {
      const m = this.material(i);
      m.uniforms.uNear.value = camera.near;
      m.uniforms.uFar.value = camera.far;
      for (const mesh of b.meshes) {
        swapped.push([mesh, mesh.material]);
        mesh.material = m;
      }
    });
    const background = scene.background;
    const clear = renderer.getClearColor(new THREE.Color());
    const clearAlpha = renderer.getClearAlpha();
    const outputColorSpace = renderer.outputColorSpace;
    const layers = camera.layers.mask;
    try {
      scene.background = null;
      renderer.setClearColor(0x000000, 0);
      renderer.outputColorSpace = THREE.LinearSRGBColorSpace;
      camera.layers.set(SOLID_LAYER);
      renderer.setRenderTarget(this.target);
      renderer.render(scene, camera);
      renderer.readRenderTargetPixels(this.target, 0, 0, width, height, this.pixels);
    } finally {
      renderer.setRenderTarget(null);
      renderer.setClearColor(clear, clearAlpha);
      renderer.outputColorSpace = outputColorSpace;
      camera.layers.mask = layers;
      scene.background = background;
      for (const [mesh, material] of swapped) mesh.material = material;
    }
  }

  /** Id at image pixel (x, y), rows top to bottom; 0 outside the image or where no body is. */
  idAt(x: number, y: number): number {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return 0;
    const i = ((this.height - 1 - y) * this.width + x) * 4;
    return this.pixels[i] + 256 * this.pixels[i + 1];
  }

  /** View depth in metres of the surface at image pixel (x, y); Infinity where no body is. */
  depthAt(x: number, y: number): number {
    if (this.idAt(x, y) === 0) return Infinity;
    const i = ((this.height - 1 - y) * this.width + x) * 4;
    const d = (256 * this.pixels[i + 2] + this.pixels[i + 3]) / DEPTH_STEPS;
    return this.near + d * (this.far - this.near);
  }

  /** Depth resolution of the buffer, metres. */
  get depthStep(): number {
    return (this.far - this.near) / DEPTH_STEPS;
  }

  /** Visible pixels per id (index 0: background). */
  counts(): Uint32Array {
    const counts = new Uint32Array(this.ids.length + 1);
    const px = this.pixels;
    for (let i = 0; i < px.length; i += 4) {
      const id = px[i] + 256 * px[i + 1];
      if (id < counts.length) counts[id]++;
    }
    return counts;
  }

  dispose(): void {
    this.target?.dispose();
    for (const m of this.materials) m.dispose();
  }
}
