import * as THREE from 'three';

const SIZE = 128;

/**
 * A contact-point marker: a ring with a centre dot in `color`, outlined in white and black so
 * it reads on any background. Constant size on screen and drawn over everything, because the
 * contact point is usually hidden between the two bodies that touch.
 */
export function drawMarker(color: string): THREE.Sprite {
  const canvas = document.createElement('canvas');
  canvas.width = SIZE;
  canvas.height = SIZE;
  const ctx = canvas.getContext('2d')!;
  const c = SIZE / 2;
  const ring = (radius: number, width: number, style: string): void => {
    ctx.beginPath();
    ctx.arc(c, c, radius, 0, 2 * Math.PI);
    ctx.lineWidth = width;
    ctx.strokeStyle = style;
    ctx.stroke();
  };
  ring(SIZE * 0.34, SIZE * 0.2, '#000000');
  ring(SIZE * 0.34, SIZE * 0.15, '#ffffff');
  ring(SIZE * 0.34, SIZE * 0.1, color);
  ctx.beginPath();
  ctx.arc(c, c, SIZE * 0.1, 0, 2 * Math.PI);
  ctx.fillStyle = color;
  ctx.fill();
  ctx.lineWidth = SIZE * 0.025;
  ctx.strokeStyle = '#ffffff';
  ctx.stroke();
  const texture = new THREE.CanvasTexture(canvas);
  texture.colorSpace = THREE.SRGBColorSpace;
  const sprite = new THREE.Sprite(
    new THREE.SpriteMaterial({ map: texture, sizeAttenuation: false, depthTest: false, depthWrite: false, transparent: true }),
  );
  sprite.scale.set(0.055, 0.055, 1);
  sprite.renderOrder = 10;
  return sprite;
}
