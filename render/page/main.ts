/**
 * The page side of the renderer: holds the three.js scene, applies the updates Node sends and
 * draws one picture per call. Bundled by esbuild into one script (render/page-bundle.ts);
 * it loads nothing over the network.
 */
import * as THREE from 'three';
import { buildBody, disposeBody, HIGHLIGHT_COLOR, OTHER_COLOR, setBodySequence, TARGET_COLOR, tintedMaterials, SOLID_LAYER, type BodyObject } from './bodies.ts';
import { cameraFrame } from '../camera-frame.ts';
import type { BodyMeasure, FrameRequest, ImageResult, LabelMeasure, MaskResult, MeasureResult, PageApi, PagePhases, SceneUpdate, ShapeMeasure } from './protocol.ts';
import { IdPass } from './id-pass.ts';
import { LineDrawing } from './lines.ts';
import { buildRulers, type LabelLayout, type RulerSet } from './rulers.ts';
import { drawMarker } from './marker.ts';

/** Direction towards the default key light: above, in front and to the right, so the three faces a default view sees differ in brightness. */
const DEFAULT_KEY_DIR = new THREE.Vector3(0.5, 1.4, 0.8).normalize();
const DEFAULT_KEY_INTENSITY = 2.4;
const SHADOW_MAP = 2048;
/** Side of the ground square when a scene gives no size, metres. */
const DEFAULT_GROUND_SIZE = 20;
/** Depth view grey levels: nearest surface and farthest surface (background is black). */
const DEPTH_NEAR_GREY = 1.0;
const DEPTH_FAR_GREY = 0.15;

// Scratch objects for the per-picture code paths.
const basis = new THREE.Matrix4();
const axisX = new THREE.Vector3();
const axisY = new THREE.Vector3();
const axisZ = new THREE.Vector3();
const scratch = new THREE.Vector3();
const lineOffset = new THREE.Vector3();
const bodyBox = new THREE.Box3();
const bodySphere = new THREE.Sphere();
const BLACK = new THREE.Color(0, 0, 0);

const seqOf = (o: THREE.Object3D): number => (o.userData.seq as number | undefined) ?? 0;

class PageView implements PageApi {
  private readonly renderer: THREE.WebGLRenderer;
  private readonly scene = new THREE.Scene();
  private readonly bodyRoot = new THREE.Group();
  private readonly bodies = new Map<string, BodyObject>();
  /** Body names in scene order (ids of the id pass follow it). */
  private order: string[] = [];
  private readonly idPass = new IdPass();
  private readonly lineDrawing = new LineDrawing();
  private rulers: RulerSet | null = null;
  private ground: THREE.Mesh | null = null;
  private groundSize: number | undefined;
  private background = new THREE.Color('#e6eaef');
  private readonly perspective = new THREE.PerspectiveCamera();
  private readonly ortho = new THREE.OrthographicCamera();
  private readonly key = new THREE.DirectionalLight('#ffffff', DEFAULT_KEY_INTENSITY);
  /** Unit direction towards the key light (the scene's `light`, else the default). */
  private readonly keyDir = DEFAULT_KEY_DIR.clone();
  /** The scene's key-light shadow normal bias, metres (`KeyLight.shadowNormalBias`); null: 0.004 × the bodies' radius. */
  private keyNormalBias: number | null = null;
  private readonly fill = new THREE.DirectionalLight('#ffffff', 0.5);
  private readonly hemi = new THREE.HemisphereLight('#ffffff', '#8c877c', 1.3);
  private readonly highlightMaterial = new THREE.MeshStandardMaterial({
    color: HIGHLIGHT_COLOR,
    emissive: HIGHLIGHT_COLOR,
    emissiveIntensity: 0.45,
    roughness: 0.75,
    polygonOffset: true,
    polygonOffsetFactor: 1,
    polygonOffsetUnits: 1,
  });
  private readonly highlightEdgeMaterial = new THREE.LineBasicMaterial({ color: '#7a007a' });
  /** Outlines of tinted bodies drawn through everything, one per tint. */
  private readonly xrayMaterials = new Map(
    [OTHER_COLOR, TARGET_COLOR].map((c) => [c, new THREE.LineBasicMaterial({ color: c, depthTest: false, depthWrite: false, transparent: true, opacity: 0.95 })]),
  );
  private readonly marker: THREE.Sprite;
  private readonly targetMarker: THREE.Sprite;
  private readonly maskMaterial = new THREE.MeshBasicMaterial({ color: '#ffffff' });
  private readonly depthMaterial = new THREE.ShaderMaterial({
    uniforms: { uNear: { value: 0 }, uFar: { value: 1 } },
    vertexShader: /* glsl */ `
      varying float vDepth;
      void main() {
        vec4 mv = modelViewMatrix * vec4(position, 1.0);
        vDepth = -mv.z;
        gl_Position = projectionMatrix * mv;
      }`,
    fragmentShader: /* glsl */ `
      uniform float uNear;
      uniform float uFar;
      varying float vDepth;
      void main() {
        float t = clamp((vDepth - uNear) / (uFar - uNear), 0.0, 1.0);
        gl_FragColor = vec4(vec3(mix(${DEPTH_NEAR_GREY.toFixed(3)}, ${DEPTH_FAR_GREY.toFixed(3)}, t)), 1.0);
      }`,
  });
  private readonly onePixel = new Uint8Array(4);
  private maskTarget: THREE.WebGLRenderTarget | null = null;
  private maskPixels = new Uint8Array(0);
  /** Where the current call's time goes (returned with the picture). */
  private phases: PagePhases = { apply: 0, idPass: 0, labels: 0, draw: 0, encode: 0 };

  constructor() {
    this.renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: false, alpha: false });
    this.renderer.setPixelRatio(1);
    this.renderer.shadowMap.enabled = true;
    this.renderer.shadowMap.type = THREE.PCFShadowMap;
    // Ties in depth are broken by scene order, never by creation history (object ids).
    this.renderer.setOpaqueSort(
      (a, b) => a.groupOrder - b.groupOrder || a.renderOrder - b.renderOrder || a.z - b.z || seqOf(a.object) - seqOf(b.object),
    );
    this.renderer.setTransparentSort(
      (a, b) => a.groupOrder - b.groupOrder || a.renderOrder - b.renderOrder || b.z - a.z || seqOf(a.object) - seqOf(b.object),
    );
    document.body.appendChild(this.renderer.domElement);
    this.key.castShadow = true;
    this.key.shadow.mapSize.set(SHADOW_MAP, SHADOW_MAP);
    this.key.shadow.bias = -0.0004;
    this.scene.add(this.hemi, this.key, this.key.target, this.fill, this.fill.target, this.bodyRoot);
    this.marker = drawMarker(HIGHLIGHT_COLOR);
    this.marker.visible = false;
    this.targetMarker = drawMarker(TARGET_COLOR);
    this.targetMarker.visible = false;
    this.scene.add(this.marker, this.targetMarker);
  }

  frame(update: SceneUpdate, request: FrameRequest): ImageResult | MaskResult | MeasureResult {
    const started = performance.now();
    this.phases = { apply: 0, idPass: 0, labels: 0, draw: 0, encode: 0 };
    this.apply(update);
    this.phases.apply = performance.now() - started;
    const { width, height } = request;
    if (this.renderer.domElement.width !== width || this.renderer.domElement.height !== height) {
      this.renderer.setSize(width, height, false);
    }
    if (request.mode === 'mask') return this.drawMask(request);
    if (request.mode === 'measure') return this.measure(request);
    const bounds = this.contentBounds(request.mode === 'rgb');
    for (const d of request.lines?.dimensions ?? []) {
      for (const p of [d.from, d.to]) bounds.expandByPoint(scratch.fromArray(p)).expandByPoint(scratch.fromArray(p).add(lineOffset.fromArray(d.offset)));
    }
    const camera = this.placeCamera(request, bounds);
    if (request.mode === 'depth') this.drawDepth(camera);
    else if (request.mode === 'lines') this.drawLines(camera as THREE.OrthographicCamera, request);
    else this.drawRgb(camera, request);
    // Reading one pixel waits for the drawing to finish, so drawing and encoding are timed apart.
    const gl = this.renderer.getContext();
    gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, this.onePixel);
    const drawn = performance.now();
    const url = this.renderer.domElement.toDataURL('image/png');
    const phases = this.phases;
    phases.encode = performance.now() - drawn;
    phases.draw = drawn - started - phases.apply - phases.idPass - phases.labels;
    return { kind: 'png', png: url.slice(url.indexOf(',') + 1), drawMs: drawn - started, encodeMs: phases.encode, phases };
  }

  private apply(u: SceneUpdate): void {
    if (u.reset) {
      for (const b of this.bodies.values()) {
        this.bodyRoot.remove(b.group);
        disposeBody(b);
      }
      this.bodies.clear();
    }
    for (const name of u.remove ?? []) {
      const b = this.bodies.get(name);
      if (!b) continue;
      this.bodyRoot.remove(b.group);
      disposeBody(b);
      this.bodies.delete(name);
    }
    for (const g of u.add ?? []) {
      const old = this.bodies.get(g.name);
      if (old) {
        this.bodyRoot.remove(old.group);
        disposeBody(old);
      }
      const b = buildBody(g);
      this.bodies.set(g.name, b);
      this.bodyRoot.add(b.group);
    }
    for (const [name, px, py, pz, qx, qy, qz, qw] of u.poses ?? []) {
      const g = this.bodies.get(name)!.group;
      g.position.set(px, py, pz);
      g.quaternion.set(qx, qy, qz, qw).normalize();
    }
    for (const [name, visible] of u.visible ?? []) this.bodies.get(name)!.group.visible = visible;
    if (u.order) {
      this.order = u.order;
      u.order.forEach((name, i) => setBodySequence(this.bodies.get(name)!, i));
    }
    if (u.rulers) {
      if (this.rulers) {
        this.scene.remove(this.rulers.group);
        this.rulers.dispose();
      }
      this.rulers = buildRulers(u.rulers);
      this.scene.add(this.rulers.group);
    }
    if (u.environment) {
      this.background.set(u.environment.background);
      const g = u.environment.ground;
      if (this.ground) {
        this.scene.remove(this.ground);
        this.ground.geometry.dispose();
        (this.ground.material as THREE.Material).dispose();
        this.ground = null;
      }
      this.groundSize = g?.size;
      if (g) {
        this.ground = new THREE.Mesh(
          new THREE.PlaneGeometry(1, 1),
          new THREE.MeshStandardMaterial({ color: g.color, roughness: 0.95, metalness: 0 }),
        );
        this.ground.rotation.x = -Math.PI / 2;
        // Drawn first and without depth: nothing belongs below the ground, and ruler labels
        // that hang below an upright ruler's "0" stay readable.
        (this.ground.material as THREE.Material).depthWrite = false;
        this.ground.renderOrder = -1;
        this.ground.position.y = g.y;
        this.ground.receiveShadow = true;
        this.scene.add(this.ground);
      }
      const light = u.environment.light;
      if (light) {
        const az = (light.azimuth * Math.PI) / 180;
        const el = (light.elevation * Math.PI) / 180;
        this.keyDir.set(Math.cos(el) * Math.sin(az), Math.sin(el), Math.cos(el) * Math.cos(az)).normalize();
      } else this.keyDir.copy(DEFAULT_KEY_DIR);
      this.key.intensity = light?.intensity ?? DEFAULT_KEY_INTENSITY;
      this.key.castShadow = light?.shadows ?? true;
      this.keyNormalBias = light?.shadowNormalBias ?? null;
      const mapSize = light?.shadowMapSize ?? SHADOW_MAP;
      if (this.key.shadow.mapSize.x !== mapSize) {
        this.key.shadow.mapSize.set(mapSize, mapSize);
        // three.js allocates the map at its first shadow pass and keeps it: drop it so the next pass allocates the new size.
        this.key.shadow.map?.dispose();
        this.key.shadow.map = null;
      }
    }
    this.bodyRoot.updateMatrixWorld(true);
    this.sizeGround();
  }

  /**
   * A ground without a given size is a 20 m square under the origin: fixed, so it does not
   * shift between strobe frames while bodies move.
   */
  private sizeGround(): void {
    if (!this.ground) return;
    const size = this.groundSize ?? DEFAULT_GROUND_SIZE;
    this.ground.scale.set(size, size, 1);
    this.ground.updateMatrixWorld(true);
  }

  /** Bounds of what the view draws: visible bodies, and for RGB also rulers and ground. */
  private contentBounds(everything: boolean): THREE.Box3 {
    const box = bodyBox.makeEmpty();
    for (const b of this.bodies.values()) if (b.group.visible) box.expandByObject(b.group);
    if (everything) {
      if (this.rulers) box.union(this.rulers.bounds);
      if (this.ground) box.expandByObject(this.ground);
    }
    return box;
  }

  /** Sets up the camera for the request with near/far planes tight around `bounds`. */
  private placeCamera(request: FrameRequest, bounds: THREE.Box3): THREE.OrthographicCamera | THREE.PerspectiveCamera {
    const spec = request.camera;
    const frame = cameraFrame(spec);
    const orthographic = spec.projection === 'orthographic' || request.mode === 'mask' || request.mode === 'lines';
    const camera = orthographic ? this.ortho : this.perspective;
    camera.position.fromArray(frame.position);
    axisX.fromArray(frame.right);
    axisY.fromArray(frame.up);
    axisZ.fromArray(frame.back);
    camera.quaternion.setFromRotationMatrix(basis.makeBasis(axisX, axisY, axisZ));
    camera.updateMatrixWorld(true);
    const [zmin, zmax] = depthRange(bounds, camera.position, axisZ);
    const margin = 0.01 * (zmax - zmin) + 1e-3;
    const aspect = request.width / request.height;
    if (camera === this.ortho) {
      const h = spec.orthoHeight / 2;
      this.ortho.left = -h * aspect;
      this.ortho.right = h * aspect;
      this.ortho.top = h;
      this.ortho.bottom = -h;
      this.ortho.near = zmin - margin;
      this.ortho.far = zmax + margin;
      this.ortho.updateProjectionMatrix();
    } else {
      this.perspective.fov = spec.fov;
      this.perspective.aspect = aspect;
      this.perspective.far = Math.max(zmax + margin, 1e-2);
      this.perspective.near = Math.max(zmin - margin, this.perspective.far * 1e-4, 1e-4);
      this.perspective.updateProjectionMatrix();
    }
    camera.layers.set(0);
    return camera;
  }

  /** Bodies in scene order. */
  private bodiesInOrder(): BodyObject[] {
    return this.order.map((n) => this.bodies.get(n)!);
  }

  /**
   * Draws the id pass for `camera` and returns a test of whether a world point is hidden behind
   * an opaque body: true when every pixel around the point's image holds a body surface nearer
   * than the point (by more than a millimetre or the buffer's depth step). Looking at the 3×3
   * neighbourhood keeps a ruler lying on a table seen at a grazing angle from being hidden by
   * the table it lies on.
   */
  private occlusionTest(
    camera: THREE.OrthographicCamera | THREE.PerspectiveCamera,
    width: number,
    height: number,
    probes?: THREE.Vector3[],
  ): (p: THREE.Vector3) => boolean {
    const ids = this.idPass;
    const forward = camera.getWorldDirection(new THREE.Vector3());
    const ndc = new THREE.Vector3();
    const rel = new THREE.Vector3();
    /** The pixel the test looks around, or null for a point behind the camera. */
    const pixelOf = (p: THREE.Vector3): [number, number] | null => {
      ndc.copy(p).project(camera);
      if (rel.copy(p).sub(camera.position).dot(forward) <= 0) return null;
      return [Math.floor(((ndc.x + 1) / 2) * width), Math.floor(((1 - ndc.y) / 2) * height)];
    };
    let region: { x0: number; y0: number; x1: number; y1: number } | undefined;
    const bodies = this.bodiesInOrder();
    const skipped: THREE.Object3D[] = [];
    if (probes) {
      // Only the pixels around the points to be tested are drawn and read back, and only the
      // bodies that may cover one of them are drawn: the others cannot change the answer.
      region = { x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity };
      const spots: [number, number][] = [];
      for (const p of probes) {
        const px = pixelOf(p);
        if (!px) continue;
        spots.push(px);
        region.x0 = Math.min(region.x0, px[0] - 1);
        region.y0 = Math.min(region.y0, px[1] - 1);
        region.x1 = Math.max(region.x1, px[0] + 2);
        region.y1 = Math.max(region.y1, px[1] + 2);
      }
      for (const b of bodies) {
        if (!b.group.visible) continue;
        // Shape by shape: one body may be a rack of a hundred balls of which two are near a label.
        for (const m of b.meshes) {
          if (!m.visible) continue;
          const rect = screenRect(m, camera, width, height);
          if (rect && !spots.some(([x, y]) => x + 1 >= rect[0] && x - 1 <= rect[2] && y + 1 >= rect[1] && y - 1 <= rect[3])) {
            m.visible = false;
            skipped.push(m);
          }
        }
      }
    }
    try {
      ids.draw(this.renderer, this.scene, camera, bodies, width, height, region);
    } finally {
      for (const o of skipped) o.visible = true;
    }
    const tol = Math.max(1e-3, 3 * ids.depthStep);
    return (p) => {
      const px = pixelOf(p);
      if (!px) return true;
      const depth = rel.copy(p).sub(camera.position).dot(forward);
      const [x, y] = px;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const id = ids.idAt(x + dx, y + dy);
          if (id === 0 || ids.ids[id - 1].material.transparent || ids.depthAt(x + dx, y + dy) >= depth - tol) return false;
        }
      }
      return true;
    };
  }

  private drawRgb(camera: THREE.OrthographicCamera | THREE.PerspectiveCamera, request: FrameRequest): void {
    if (this.rulers?.hasLabels) {
      const t0 = performance.now();
      const occluded = this.occlusionTest(camera, request.width, request.height, this.rulers.probes);
      const t1 = performance.now();
      this.rulers.layout(camera, request.width, request.height, occluded);
      this.phases.idPass += t1 - t0;
      this.phases.labels += performance.now() - t1;
    }
    this.scene.background = this.background;
    this.placeLights(camera);
    const h = request.highlight;
    const named = (names: string[] | undefined): BodyObject[] => (names ?? []).flatMap((n) => {
      const b = this.bodies.get(n);
      return b ? [b] : [];
    });
    const highlighted = named(h?.bodies);
    // The other bodies and the target keep their own colour, tinted: two highlighted disks
    // still differ in colour, so which is smaller can be told.
    const tinted: [BodyObject, THREE.Material, THREE.Material][] = [
      ...named(h?.others).filter((b) => !highlighted.includes(b)).map((b) => tintedMaterials(b, OTHER_COLOR)),
      ...named(h?.target?.body ? [h.target.body] : []).filter((b) => !highlighted.includes(b)).map((b) => tintedMaterials(b, TARGET_COLOR)),
    ];
    for (const b of highlighted) {
      for (const m of b.meshes) m.material = this.highlightMaterial;
      for (const e of b.edges) e.material = this.highlightEdgeMaterial;
    }
    // Their outlines are also drawn through whatever stands in front (an x-ray), so a disk
    // hidden under the one that moved still shows where it is and how large it is.
    const xray: [THREE.Object3D, THREE.LineSegments][] = [];
    for (const [b, face, edge] of tinted) {
      for (const m of b.meshes) m.material = face;
      for (const e of b.edges) {
        e.material = edge;
        const through = new THREE.LineSegments(e.geometry, this.xrayMaterials.get(edge.userData.tint as string));
        through.position.copy(e.position);
        through.quaternion.copy(e.quaternion);
        through.renderOrder = 9;
        e.parent!.add(through);
        through.updateMatrixWorld(true);
        xray.push([e.parent!, through]);
      }
    }
    const point = h?.point;
    this.marker.visible = point !== undefined;
    if (point) this.marker.position.fromArray(point);
    const targetPoint = h?.target?.point;
    this.targetMarker.visible = targetPoint !== undefined;
    if (targetPoint) this.targetMarker.position.fromArray(targetPoint);
    try {
      this.renderer.render(this.scene, camera);
    } finally {
      for (const b of [...highlighted, ...tinted.map((t) => t[0])]) {
        for (const m of b.meshes) m.material = b.material;
        for (const e of b.edges) e.material = b.edgeMaterial;
      }
      for (const [parent, through] of xray) parent.remove(through);
      for (const [, face, edge] of tinted) {
        face.dispose();
        edge.dispose();
      }
      this.marker.visible = false;
      this.targetMarker.visible = false;
    }
  }

  /**
   * Key light fixed in the world with a shadow box fitted to the bodies; fill light from the
   * camera's upper left. The shadow map only has to cover the bodies across the light: a
   * shadow falls where its caster already is in the light's view. Along the light, it reaches
   * to where the ray past the highest body point meets the ground.
   */
  private placeLights(camera: THREE.Camera): void {
    const box = this.contentBounds(false);
    const sphere = box.isEmpty() ? bodySphere.set(scratch.set(0, 0, 0), 1) : box.getBoundingSphere(bodySphere);
    const r = Math.max(sphere.radius, 1e-3);
    const dir = this.keyDir;
    this.key.target.position.copy(sphere.center);
    this.key.position.copy(sphere.center).addScaledVector(dir, 3 * r);
    const cam = this.key.shadow.camera;
    cam.left = -1.05 * r;
    cam.right = 1.05 * r;
    cam.top = 1.05 * r;
    cam.bottom = -1.05 * r;
    cam.near = 1.9 * r;
    const groundDrop = this.ground ? Math.max(0, sphere.center.y + r - this.ground.position.y) / Math.max(dir.y, 1e-3) : 0;
    cam.far = 4.1 * r + groundDrop;
    cam.updateProjectionMatrix();
    this.key.shadow.normalBias = this.keyNormalBias ?? 0.004 * r;
    this.key.target.updateMatrixWorld();
    this.key.updateMatrixWorld();
    const up = axisY.set(0, 1, 0).applyQuaternion(camera.quaternion);
    const right = axisX.set(1, 0, 0).applyQuaternion(camera.quaternion);
    this.fill.target.position.copy(sphere.center);
    this.fill.position.copy(camera.position).addScaledVector(up, r).addScaledVector(right, -r);
    this.fill.target.updateMatrixWorld();
    this.fill.updateMatrixWorld();
  }

  /**
   * What the RGB picture of this request would show: per body its visible pixels (id buffer
   * with depth, so occlusion counts; an opaque body seen through a translucent one counts as
   * seen) and whether its outline crosses the image border (any
   * vertex projecting outside the image), per ruler label its layout and state.
   */
  private measure(request: FrameRequest): MeasureResult {
    const { width, height } = request;
    const camera = this.placeCamera({ ...request, mode: 'rgb' }, this.contentBounds(true));
    const occluded = this.occlusionTest(camera, width, height);
    const labels: LabelLayout[] = this.rulers?.hasLabels ? this.rulers.layout(camera, width, height, occluded) : [];
    const counts = this.idPass.counts();
    // A label's plate is drawn over everything: what lies under a shown label is covered.
    const measured: LabelMeasure[] = labels.map((l) => (l.state === 'shown' ? { ...l, covers: this.coveredBy(l.rect, width, height) } : l));
    // What is seen through a translucent body (an outline of ghost cubes) is in the picture,
    // dimmed: count the opaque bodies again without the translucent ones in front.
    const ordered = this.bodiesInOrder();
    const translucent = ordered.filter((b) => b.group.visible && b.material.transparent);
    if (translucent.length) {
      for (const b of translucent) b.group.visible = false;
      try {
        this.idPass.draw(this.renderer, this.scene, camera, ordered, width, height);
      } finally {
        for (const b of translucent) b.group.visible = true;
      }
      const behind = this.idPass.counts();
      ordered.forEach((b, i) => {
        if (!b.material.transparent) counts[i + 1] = behind[i + 1];
      });
    }
    const ndc = new THREE.Vector3();
    const bodies = this.order.map((name, i) => {
      const b = this.bodies.get(name)!;
      let cut = false;
      const bounds: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
      if (b.group.visible) {
        b.group.updateMatrixWorld(true);
        for (const m of b.meshes) {
          const pos = m.geometry.getAttribute('position');
          for (let k = 0; k < pos.count; k++) {
            ndc.fromBufferAttribute(pos, k).applyMatrix4(m.matrixWorld).project(camera);
            if (ndc.z < -1 || ndc.z > 1 || Math.abs(ndc.x) > 1 || Math.abs(ndc.y) > 1) cut = true;
            const x = ((ndc.x + 1) / 2) * width;
            const y = ((1 - ndc.y) / 2) * height;
            bounds[0] = Math.min(bounds[0], x);
            bounds[1] = Math.min(bounds[1], y);
            bounds[2] = Math.max(bounds[2], x);
            bounds[3] = Math.max(bounds[3], y);
          }
        }
      }
      return { name, drawn: b.group.visible, pixels: counts[i + 1], cut, bounds } as BodyMeasure;
    });
    for (const name of request.alone ?? []) {
      const i = this.order.indexOf(name);
      if (i >= 0) bodies[i].alonePixels = this.alonePixels(name, camera, width, height);
    }
    if (request.byShape?.length) {
      const plates = measured.filter((l) => l.state === 'shown').map((l) => l.rect);
      const full = this.annotatedIds(camera, width, height);
      for (const name of request.byShape) {
        const i = this.order.indexOf(name);
        if (i >= 0 && bodies[i].drawn) bodies[i].shapes = this.shapePixels(name, camera, width, height, full, plates);
      }
    }
    return { kind: 'measure', width, height, bodies, labels: measured };
  }

  /**
   * The id of every pixel of the picture (rows top to bottom), with the rulers' bands, lines and
   * ticks drawn as one more surface (id `ruler`), so what lies behind them can be told; bodies
   * behind a translucent one count as seen, as in the body counts. Labels are not drawn here:
   * their plates lie over everything and are told by their rectangles.
   */
  private annotatedIds(camera: THREE.OrthographicCamera | THREE.PerspectiveCamera, width: number, height: number): { ids: Uint32Array; ruler: number } {
    const ordered = this.bodiesInOrder();
    const marks: THREE.Mesh[] = [];
    this.rulers?.group.traverse((o) => {
      if ((o as THREE.Mesh).isMesh || (o as THREE.LineSegments).isLineSegments) marks.push(o as THREE.Mesh);
    });
    const rulerBody: BodyObject = { ...ordered[0], key: 'rulers', group: this.rulers?.group ?? new THREE.Group(), meshes: marks, edges: [] };
    const translucent = ordered.filter((b) => b.group.visible && b.material.transparent);
    const solidBefore = marks.map((m) => m.layers.isEnabled(SOLID_LAYER));
    for (const b of translucent) b.group.visible = false;
    for (const m of marks) m.layers.enable(SOLID_LAYER);
    try {
      this.idPass.draw(this.renderer, this.scene, camera, ordered.length ? [...ordered, rulerBody] : [], width, height);
    } finally {
      for (const b of translucent) b.group.visible = true;
      marks.forEach((m, k) => {
        if (!solidBefore[k]) m.layers.disable(SOLID_LAYER);
      });
    }
    const ids = new Uint32Array(width * height);
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) ids[y * width + x] = this.idPass.idAt(x, y);
    return { ids, ruler: ordered.length + 1 };
  }

  /**
   * Body `name` shape by shape: each shape's pixels with the body drawn alone (one id per shape),
   * and where each of them went in the full picture `full` (annotatedIds): shown, under a shown
   * label's plate (`plates`), behind a ruler's marks, or behind another body.
   */
  private shapePixels(
    name: string,
    camera: THREE.OrthographicCamera | THREE.PerspectiveCamera,
    width: number,
    height: number,
    full: { ids: Uint32Array; ruler: number },
    plates: number[][],
  ): ShapeMeasure[] {
    const ordered = this.bodiesInOrder();
    const body = this.bodies.get(name)!;
    const id = this.order.indexOf(name) + 1;
    const was = ordered.map((b) => b.group.visible);
    for (const b of ordered) if (b !== body) b.group.visible = false;
    try {
      this.idPass.draw(this.renderer, this.scene, camera, body.meshes.map((m) => ({ ...body, meshes: [m] })), width, height);
    } finally {
      ordered.forEach((b, i) => {
        b.group.visible = was[i];
      });
    }
    const out: ShapeMeasure[] = body.meshes.map(() => ({ alone: 0, shown: 0, underLabel: 0, underRuler: 0, underBody: 0, extent: 0 }));
    const box = out.map(() => [Infinity, Infinity, -Infinity, -Infinity]);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const k = this.idPass.idAt(x, y);
        if (k === 0 || k > out.length) continue;
        const s = out[k - 1];
        const b = box[k - 1];
        s.alone++;
        b[0] = Math.min(b[0], x);
        b[1] = Math.min(b[1], y);
        b[2] = Math.max(b[2], x + 1);
        b[3] = Math.max(b[3], y + 1);
        const cx = x + 0.5;
        const cy = y + 0.5;
        if (plates.some((r) => cx >= r[0] && cx < r[2] && cy >= r[1] && cy < r[3])) s.underLabel++;
        else {
          const f = full.ids[y * width + x];
          if (f === id) s.shown++;
          else if (f === full.ruler) s.underRuler++;
          else s.underBody++;
        }
      }
    }
    out.forEach((s, k) => {
      const b = box[k];
      s.extent = s.alone ? Math.hypot(b[2] - b[0], b[3] - b[1]) : 0;
    });
    return out;
  }

  /** Body name → visible pixels inside `rect` (image pixels, y down) of the id pass last drawn over the whole image. */
  private coveredBy(rect: [number, number, number, number], width: number, height: number): Record<string, number> {
    const out: Record<string, number> = {};
    const x0 = Math.max(0, Math.floor(rect[0]));
    const y0 = Math.max(0, Math.floor(rect[1]));
    const x1 = Math.min(width, Math.ceil(rect[2]));
    const y1 = Math.min(height, Math.ceil(rect[3]));
    for (let y = y0; y < y1; y++) {
      for (let x = x0; x < x1; x++) {
        const id = this.idPass.idAt(x, y);
        if (id === 0 || id > this.order.length) continue;
        const name = this.order[id - 1];
        out[name] = (out[name] ?? 0) + 1;
      }
    }
    return out;
  }

  /** Pixels body `name` shows when it is drawn alone (every other body hidden for one id pass). */
  private alonePixels(name: string, camera: THREE.OrthographicCamera | THREE.PerspectiveCamera, width: number, height: number): number {
    const ordered = this.bodiesInOrder();
    const was = ordered.map((b) => b.group.visible);
    ordered.forEach((b, i) => {
      if (this.order[i] !== name) b.group.visible = false;
    });
    try {
      this.idPass.draw(this.renderer, this.scene, camera, ordered, width, height);
    } finally {
      ordered.forEach((b, i) => {
        b.group.visible = was[i];
      });
    }
    return this.idPass.counts()[this.order.indexOf(name) + 1];
  }

  /** The line drawing (lines.ts): edges from the id and normal buffers, hidden lines and dimensions if asked. */
  private drawLines(camera: THREE.OrthographicCamera, request: FrameRequest): void {
    const bodies = this.bodiesInOrder();
    this.idPass.draw(this.renderer, this.scene, camera, bodies, request.width, request.height);
    const ground = this.ground?.visible ?? false;
    if (this.ground) this.ground.visible = false;
    try {
      this.lineDrawing.draw(this.renderer, this.scene, camera, this.idPass, bodies, {
        width: request.width,
        height: request.height,
        hidden: request.lines?.hidden ?? false,
        dimensions: request.lines?.dimensions ?? [],
      });
    } finally {
      if (this.ground) this.ground.visible = ground;
    }
  }

  private drawDepth(camera: THREE.Camera): void {
    const back = axisZ.set(0, 0, 1).applyQuaternion(camera.quaternion);
    const [near, far] = this.surfaceDepthRange(camera.position, back);
    this.depthMaterial.uniforms.uNear.value = near;
    this.depthMaterial.uniforms.uFar.value = Math.max(far, near + 1e-6);
    camera.layers.set(SOLID_LAYER);
    this.scene.background = BLACK;
    this.scene.overrideMaterial = this.depthMaterial;
    try {
      this.renderer.render(this.scene, camera);
    } finally {
      this.scene.overrideMaterial = null;
      camera.layers.set(0);
    }
  }

  /** Exact view-depth range of all visible body surfaces (vertex by vertex). */
  private surfaceDepthRange(origin: THREE.Vector3, back: THREE.Vector3): [number, number] {
    let lo = Infinity;
    let hi = -Infinity;
    const v = scratch;
    for (const b of this.bodies.values()) {
      if (!b.group.visible) continue;
      for (const m of b.meshes) {
        const pos = m.geometry.getAttribute('position');
        for (let i = 0; i < pos.count; i++) {
          v.fromBufferAttribute(pos, i).applyMatrix4(m.matrixWorld).sub(origin);
          const d = -v.dot(back);
          if (d < lo) lo = d;
          if (d > hi) hi = d;
        }
      }
    }
    return Number.isFinite(lo) ? [lo, hi] : [0, 1];
  }

  private drawMask(request: FrameRequest): MaskResult {
    const { width, height } = request;
    const only = request.only ? new Set(request.only) : null;
    const hidden: THREE.Group[] = [];
    if (only) {
      for (const [name, b] of this.bodies) {
        if (!only.has(name) && b.group.visible) {
          b.group.visible = false;
          hidden.push(b.group);
        }
      }
    }
    if (!this.maskTarget || this.maskTarget.width !== width || this.maskTarget.height !== height) {
      this.maskTarget?.dispose();
      this.maskTarget = new THREE.WebGLRenderTarget(width, height, { samples: 0, depthBuffer: true });
      this.maskPixels = new Uint8Array(width * height * 4);
    }
    const outputColorSpace = this.renderer.outputColorSpace;
    try {
      const camera = this.placeCamera(request, this.contentBounds(false));
      camera.layers.set(SOLID_LAYER);
      this.scene.background = BLACK;
      this.scene.overrideMaterial = this.maskMaterial;
      this.renderer.outputColorSpace = THREE.LinearSRGBColorSpace;
      this.renderer.setRenderTarget(this.maskTarget);
      this.renderer.render(this.scene, camera);
      this.renderer.readRenderTargetPixels(this.maskTarget, 0, 0, width, height, this.maskPixels);
      camera.layers.set(0);
    } finally {
      this.renderer.setRenderTarget(null);
      this.renderer.outputColorSpace = outputColorSpace;
      this.scene.overrideMaterial = null;
      for (const g of hidden) g.visible = true;
    }
    const rowBytes = Math.ceil(width / 8);
    const packed = new Uint8Array(rowBytes * height);
    let count = 0;
    const px = this.maskPixels;
    for (let y = 0; y < height; y++) {
      // GL rows run bottom to top; the mask runs top to bottom like an image.
      const src = (height - 1 - y) * width * 4;
      const dst = y * rowBytes;
      for (let x = 0; x < width; x++) {
        if (px[src + 4 * x] > 127) {
          packed[dst + (x >> 3)] |= 0x80 >> (x & 7);
          count++;
        }
      }
    }
    return { kind: 'mask', width, height, bits: toBase64(packed), count };
  }
}

const rectBox = new THREE.Box3();
const rectCorner = new THREE.Vector3();
const rectForward = new THREE.Vector3();
const rectOffset = new THREE.Vector3();

/**
 * A rectangle of image pixels (x0, y0, x1, y1; y down, inclusive, a pixel's margin added) that
 * holds every pixel `object` can cover, from the corners of its world bounding box; null when
 * that cannot be said (a corner at or behind the camera).
 */
function screenRect(object: THREE.Object3D, camera: THREE.Camera, width: number, height: number): [number, number, number, number] | null {
  rectBox.setFromObject(object);
  if (rectBox.isEmpty()) return [Infinity, Infinity, -Infinity, -Infinity];
  camera.getWorldDirection(rectForward);
  const rect: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let i = 0; i < 8; i++) {
    rectCorner.set(i & 1 ? rectBox.max.x : rectBox.min.x, i & 2 ? rectBox.max.y : rectBox.min.y, i & 4 ? rectBox.max.z : rectBox.min.z);
    if ((camera as THREE.PerspectiveCamera).isPerspectiveCamera && rectOffset.copy(rectCorner).sub(camera.position).dot(rectForward) <= 1e-6) return null;
    rectCorner.project(camera);
    const x = ((rectCorner.x + 1) / 2) * width;
    const y = ((1 - rectCorner.y) / 2) * height;
    rect[0] = Math.min(rect[0], Math.floor(x) - 1);
    rect[1] = Math.min(rect[1], Math.floor(y) - 1);
    rect[2] = Math.max(rect[2], Math.ceil(x) + 1);
    rect[3] = Math.max(rect[3], Math.ceil(y) + 1);
  }
  return rect;
}

/** Range of `dot(p - origin, -back)` over the corners of `box`; [0, 1] when empty. */
function depthRange(box: THREE.Box3, origin: THREE.Vector3, back: THREE.Vector3): [number, number] {
  if (box.isEmpty()) return [0.01, 100];
  let lo = Infinity;
  let hi = -Infinity;
  const c = new THREE.Vector3();
  for (let i = 0; i < 8; i++) {
    c.set(i & 1 ? box.max.x : box.min.x, i & 2 ? box.max.y : box.min.y, i & 4 ? box.max.z : box.min.z);
    const d = -c.sub(origin).dot(back);
    lo = Math.min(lo, d);
    hi = Math.max(hi, d);
  }
  return [lo, hi];
}

function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(s);
}

(window as unknown as { __spaceact: PageApi }).__spaceact = new PageView();
