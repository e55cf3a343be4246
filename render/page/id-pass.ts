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
  /** RGBA bytes of the last pass's region, GL rows (bottom to top). */
  pixels = new Uint8Array(0);
  width = 0;
  height = 0;
  /** The region drawn and read back by the last pass: image pixels, x right, y down, end exclusive. */
  private region = { x0: 0, y0: 0, x1: 0, y1: 0 };
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
   * With `region` (image pixels, x right, y down, end exclusive) only that rectangle is drawn
   * (a scissor: its pixels are exactly those of the whole pass) and read back, and only its
   * pixels may be asked for: a ruler's labels need a few dozen pixels, not the whole image.
   */
  draw(
    renderer: THREE.WebGLRenderer,
    scene: THREE.Scene,
    camera: THREE.OrthographicCamera | THREE.PerspectiveCamera,
    bodies: BodyObject[],
    width: number,
    height: number,
    region?: { x0: number; y0: number; x1: number; y1: number },
  ): void {
    if (!this.target || this.target.width !== width || this.target.height !== height) {
      this.target?.dispose();
      this.target = new THREE.WebGLRenderTarget(width, height, { samples: 0, depthBuffer: true, minFilter: THREE.NearestFilter, magFilter: THREE.NearestFilter });
    }
    const r = region
      ? { x0: Math.max(0, region.x0), y0: Math.max(0, region.y0), x1: Math.min(width, region.x1), y1: Math.min(height, region.y1) }
      : { x0: 0, y0: 0, x1: width, y1: height };
    if (r.x1 <= r.x0 || r.y1 <= r.y0) Object.assign(r, { x0: 0, y0: 0, x1: 1, y1: 1 });
    const rw = r.x1 - r.x0;
    const rh = r.y1 - r.y0;
    if (this.pixels.length < rw * rh * 4) this.pixels = new Uint8Array(width * height * 4);
    // GL counts rows from the bottom.
    const glY = height - r.y1;
    this.target.scissor.set(r.x0, glY, rw, rh);
    this.target.scissorTest = region !== undefined;
    this.region = r;
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
      renderer.readRenderTargetPixels(this.target, r.x0, glY, rw, rh, this.pixels);
    } finally {
      renderer.setRenderTarget(null);
      renderer.setClearColor(clear, clearAlpha);
      renderer.outputColorSpace = outputColorSpace;
      camera.layers.mask = layers;
      scene.background = background;
      for (const [mesh, material] of swapped) mesh.material = material;
    }
  }

  /** Byte offset of image pixel (x, y) (rows top to bottom) in {@link pixels}; -1 outside the image. */
  private offset(x: number, y: number): number {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return -1;
    const r = this.region;
    if (x < r.x0 || y < r.y0 || x >= r.x1 || y >= r.y1) throw new Error(`id pass: pixel (${x}, ${y}) is outside the region drawn`);
    return ((r.y1 - 1 - y) * (r.x1 - r.x0) + (x - r.x0)) * 4;
  }

  /** Id at image pixel (x, y), rows top to bottom; 0 outside the image or where no body is. */
  idAt(x: number, y: number): number {
    const i = this.offset(x, y);
    return i < 0 ? 0 : this.pixels[i] + 256 * this.pixels[i + 1];
  }

  /** View depth in metres of the surface at image pixel (x, y); Infinity where no body is. */
  depthAt(x: number, y: number): number {
    if (this.idAt(x, y) === 0) return Infinity;
    const i = this.offset(x, y);
    const d = (256 * this.pixels[i + 2] + this.pixels[i + 3]) / DEPTH_STEPS;
    return this.near + d * (this.far - this.near);
  }

  /** Depth resolution of the buffer, metres. */
  get depthStep(): number {
    return (this.far - this.near) / DEPTH_STEPS;
  }

  /** Visible pixels per id (index 0: background) over the region drawn. */
  counts(): Uint32Array {
    const counts = new Uint32Array(this.ids.length + 1);
    const px = this.pixels;
    const n = (this.region.x1 - this.region.x0) * (this.region.y1 - this.region.y0) * 4;
    for (let i = 0; i < n; i += 4) {
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
