import * as THREE from 'three';
import { SOLID_LAYER, type BodyObject } from './bodies.ts';
import type { IdPass } from './id-pass.ts';
import type { DimensionSpec } from './protocol.ts';
import { labelTexture } from './rulers.ts';

/** Faces of one body meeting at more than this angle (degrees) give a line. */
const CREASE_ANGLE = 20;
/** Line colour, hidden-line colour and paper colour of line drawings. */
const INK = '#111111';
const HIDDEN_INK = '#7a7a7a';
const PAPER = '#ffffff';
/** Dimension label height and arrowhead length, pixels. */
const DIMENSION_LABEL_PX = 20;
const ARROW_PX = 9;

const edgeVertex = /* glsl */ `
  varying vec2 vUv;
  void main() {
    vUv = uv;
    gl_Position = vec4(position.xy, 0.0, 1.0);
  }`;

/**
 * Image-space edges from the id buffer (id and 16-bit depth) and a normal buffer: a pixel is ink
 * when a neighbour belongs to another body (or to the background), when the surface normal
 * turns by more than the crease angle, or when the depth jumps (second difference above the
 * tolerance). Coplanar faces of one body (the cubes of a polycube) leave no seam, and round
 * shapes get their true outline, which edges taken from the triangles would not give.
 */
const edgeFragment = /* glsl */ `
  uniform sampler2D tId;
  uniform sampler2D tNormal;
  uniform vec2 texel;
  uniform float depthTol;
  uniform float creaseCos;
  uniform vec3 ink;
  uniform vec3 paper;
  varying vec2 vUv;
  float idOf(vec2 uv) {
    vec4 c = floor(texture2D(tId, uv) * 255.0 + 0.5);
    return c.r + 256.0 * c.g;
  }
  float depthOf(vec2 uv) {
    vec4 c = floor(texture2D(tId, uv) * 255.0 + 0.5);
    return (256.0 * c.b + c.a) / 65535.0;
  }
  vec3 normalOf(vec2 uv) {
    return normalize(texture2D(tNormal, uv).rgb * 2.0 - 1.0);
  }
  bool differs(vec2 a, vec2 b) {
    float ia = idOf(a);
    float ib = idOf(b);
    if (ia != ib) return true;
    if (ia == 0.0) return false;
    return dot(normalOf(a), normalOf(b)) < creaseCos;
  }
  bool depthStep(vec2 uv, vec2 d) {
    float id = idOf(uv);
    if (id == 0.0 || idOf(uv - d) != id || idOf(uv + d) != id) return false;
    return abs(depthOf(uv - d) + depthOf(uv + d) - 2.0 * depthOf(uv)) > depthTol;
  }
  void main() {
    vec2 dx = vec2(texel.x, 0.0);
    vec2 dy = vec2(0.0, texel.y);
    bool edge = differs(vUv, vUv + dx) || differs(vUv, vUv - dx) || differs(vUv, vUv + dy) || differs(vUv, vUv - dy)
      || depthStep(vUv, dx) || depthStep(vUv, dy);
    gl_FragColor = vec4(edge ? ink : paper, 1.0);
  }`;

const NORMAL_MATERIAL = (): THREE.MeshNormalMaterial => new THREE.MeshNormalMaterial({ side: THREE.DoubleSide });

/** Formats a length for a dimension line: centimetres with one decimal at most, millimetres below 1 cm, metres from 1 m. */
export function dimensionText(metres: number): string {
  if (metres >= 1) return `${Number(metres.toFixed(3))} m`;
  if (metres >= 0.01) return `${Number((metres * 100).toFixed(1))} cm`;
  return `${Number((metres * 1000).toFixed(1))} mm`;
}

/**
 * Line drawings: visible edges found in image space, optional hidden lines (the bodies'
 * feature edges where they are behind a surface, dashed grey), and dimension lines with
 * arrowheads and their values, on white.
 */
export class LineDrawing {
  private normalTarget: THREE.WebGLRenderTarget | null = null;
  private readonly normalMaterial = NORMAL_MATERIAL();
  private readonly depthOnly = new THREE.MeshBasicMaterial({ colorWrite: false, side: THREE.DoubleSide, polygonOffset: true, polygonOffsetFactor: 1, polygonOffsetUnits: 1 });
  private readonly hiddenMaterial = new THREE.LineDashedMaterial({ color: HIDDEN_INK, dashSize: 1, gapSize: 1, depthFunc: THREE.GreaterDepth, depthWrite: false });
  private readonly edgeMaterial = new THREE.ShaderMaterial({
    uniforms: {
      tId: { value: null },
      tNormal: { value: null },
      texel: { value: new THREE.Vector2() },
      depthTol: { value: 0 },
      creaseCos: { value: Math.cos((CREASE_ANGLE * Math.PI) / 180) },
      ink: { value: new THREE.Color(INK) },
      paper: { value: new THREE.Color(PAPER) },
    },
    vertexShader: edgeVertex,
    fragmentShader: edgeFragment,
    depthTest: false,
    depthWrite: false,
  });
  private readonly quadScene = new THREE.Scene();
  private readonly quadCamera = new THREE.OrthographicCamera(-1, 1, 1, -1, 0, 1);

  constructor() {
    const quad = new THREE.Mesh(new THREE.PlaneGeometry(2, 2), this.edgeMaterial);
    quad.frustumCulled = false;
    this.quadScene.add(quad);
  }

  /**
   * Draws the line drawing onto the canvas. `ids` must hold the id pass of this camera;
   * `bodies` are in id order. The camera is orthographic.
   */
  draw(
    renderer: THREE.WebGLRenderer,
    scene: THREE.Scene,
    camera: THREE.OrthographicCamera,
    ids: IdPass,
    bodies: BodyObject[],
    opts: { width: number; height: number; hidden: boolean; dimensions: DimensionSpec[] },
  ): void {
    const { width, height } = opts;
    if (!this.normalTarget || this.normalTarget.width !== width || this.normalTarget.height !== height) {
      this.normalTarget?.dispose();
      this.normalTarget = new THREE.WebGLRenderTarget(width, height, { samples: 0, minFilter: THREE.NearestFilter, magFilter: THREE.NearestFilter });
    }
    const background = scene.background;
    const clear = renderer.getClearColor(new THREE.Color());
    const clearAlpha = renderer.getClearAlpha();
    const layers = camera.layers.mask;
    const disposables: { dispose(): void }[] = [];
    try {
      scene.background = null;
      camera.layers.set(SOLID_LAYER);
      // Normals of the visible surfaces.
      renderer.setClearColor(0x000000, 0);
      scene.overrideMaterial = this.normalMaterial;
      renderer.setRenderTarget(this.normalTarget);
      renderer.render(scene, camera);
      renderer.setRenderTarget(null);
      // Visible edges onto white.
      const pixelMetres = (camera.top - camera.bottom) / height;
      const u = this.edgeMaterial.uniforms;
      u.tId.value = ids.texture;
      u.tNormal.value = this.normalTarget.texture;
      u.texel.value.set(1 / width, 1 / height);
      // A depth step of more than 1.5 pixels' size is an edge (a plane's depth has no second difference).
      u.depthTol.value = Math.max(3 / 65535, (1.5 * pixelMetres) / Math.max(camera.far - camera.near, 1e-9));
      renderer.setClearColor(PAPER, 1);
      renderer.clear();
      renderer.autoClear = false;
      renderer.render(this.quadScene, this.quadCamera);
      if (opts.hidden) {
        // Fill the depth buffer with the solids, then draw their feature edges where they lie behind.
        scene.overrideMaterial = this.depthOnly;
        renderer.render(scene, camera);
        scene.overrideMaterial = null;
        const dash = 4 * pixelMetres;
        this.hiddenMaterial.dashSize = dash;
        this.hiddenMaterial.gapSize = dash * 0.75;
        const hiddenScene = new THREE.Scene();
        for (const b of bodies) {
          if (!b.group.visible) continue;
          for (const e of b.edges) {
            const line = new THREE.LineSegments(e.geometry.clone(), this.hiddenMaterial);
            disposables.push(line.geometry);
            line.matrixAutoUpdate = false;
            line.matrix.copy(e.matrixWorld);
            line.matrixWorld.copy(e.matrixWorld);
            line.computeLineDistances();
            hiddenScene.add(line);
          }
        }
        camera.layers.set(0);
        renderer.render(hiddenScene, camera);
      }
      scene.overrideMaterial = null;
      if (opts.dimensions.length) {
        const dims = buildDimensions(opts.dimensions, camera, height);
        disposables.push(dims);
        camera.layers.set(0);
        renderer.render(dims.scene, camera);
      }
    } finally {
      renderer.autoClear = true;
      renderer.setRenderTarget(null);
      renderer.setClearColor(clear, clearAlpha);
      scene.overrideMaterial = null;
      scene.background = background;
      camera.layers.mask = layers;
      for (const d of disposables) d.dispose();
    }
  }

  dispose(): void {
    this.normalTarget?.dispose();
    this.normalMaterial.dispose();
    this.depthOnly.dispose();
    this.hiddenMaterial.dispose();
    this.edgeMaterial.dispose();
  }
}

/**
 * Dimension lines for an orthographic camera: extension lines from the two measured points out
 * along the offset (a little beyond), the dimension line between them with an arrowhead at
 * each end, and the value on a label at its middle. Drawn over everything.
 */
function buildDimensions(specs: DimensionSpec[], camera: THREE.OrthographicCamera, height: number): { scene: THREE.Scene; dispose(): void } {
  const scene = new THREE.Scene();
  const disposables: { dispose(): void }[] = [];
  const pixelMetres = (camera.top - camera.bottom) / height;
  const back = new THREE.Vector3(0, 0, 1).applyQuaternion(camera.quaternion);
  const positions: number[] = [];
  const push = (a: THREE.Vector3, b: THREE.Vector3): void => {
    positions.push(a.x, a.y, a.z, b.x, b.y, b.z);
  };
  for (const d of specs) {
    const a = new THREE.Vector3(...d.from);
    const b = new THREE.Vector3(...d.to);
    const off = new THREE.Vector3(...d.offset);
    const a2 = a.clone().add(off);
    const b2 = b.clone().add(off);
    const overshoot = off.lengthSq() > 0 ? off.clone().normalize().multiplyScalar(4 * pixelMetres) : new THREE.Vector3();
    push(a, a2.clone().add(overshoot));
    push(b, b2.clone().add(overshoot));
    push(a2, b2);
    // Arrowheads in the picture plane: two short strokes at ±25° to the line at each end.
    const along = b2.clone().sub(a2);
    const inPlane = along.clone().sub(back.clone().multiplyScalar(along.dot(back)));
    if (inPlane.lengthSq() > 1e-18) {
      inPlane.normalize();
      const side = new THREE.Vector3().crossVectors(back, inPlane);
      const len = ARROW_PX * pixelMetres;
      for (const [tip, dir] of [[a2, inPlane], [b2, inPlane.clone().negate()]] as const) {
        for (const s of [-1, 1]) {
          const wing = tip.clone().addScaledVector(dir, len * Math.cos(0.44)).addScaledVector(side, s * len * Math.sin(0.44));
          push(tip, wing);
        }
      }
    }
    const text = d.text ?? dimensionText(a.distanceTo(b));
    const { texture, aspect } = labelTexture(text, INK);
    const material = new THREE.SpriteMaterial({ map: texture, depthTest: false, depthWrite: false, transparent: true });
    const sprite = new THREE.Sprite(material);
    const h = DIMENSION_LABEL_PX * pixelMetres;
    sprite.scale.set(h * aspect, h, 1);
    sprite.position.copy(a2).add(b2).multiplyScalar(0.5);
    sprite.renderOrder = 11;
    scene.add(sprite);
    disposables.push(texture, material);
  }
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', new THREE.Float32BufferAttribute(positions, 3));
  const material = new THREE.LineBasicMaterial({ color: INK, depthTest: false, depthWrite: false });
  const lines = new THREE.LineSegments(geometry, material);
  lines.renderOrder = 10;
  scene.add(lines);
  disposables.push(geometry, material);
  return {
    scene,
    dispose() {
      for (const d of disposables) d.dispose();
    },
  };
}
