/**
 * Materials and how two materials combine in a contact.
 *
 * **Friction combine rule: Min.** When two colliders touch, the Coulomb friction coefficient of
 * the contact is the *smaller* of the two colliders' coefficients: `μ = min(μ₁, μ₂)`. A rubber
 * block (μ 0.9) on ice (μ 0.02) slides like ice. Every collider the world creates sets Rapier's
 * `CoefficientCombineRule.Min` for friction, so the rule holds whatever the other body is.
 *
 * **Restitution combine rule: Max.** The bouncier surface wins: `e = max(e₁, e₂)`, so a ball with
 * restitution 0.8 bounces on any floor without the floor needing its own restitution.
 *
 * Units: density in kg/m³, friction and restitution dimensionless.
 */
import RAPIER from '@dimforge/rapier3d-compat';
import type { Material } from './types.ts';
import { finiteNumber, plainObject } from './validate.ts';

/** Material used for any field a body spec leaves out: ABS-like plastic at bulk density. */
export const DEFAULT_MATERIAL: Readonly<Material> = Object.freeze({ density: 1000, friction: 0.5, restitution: 0 });

/** The friction rule every collider uses (see the module comment). */
export const FRICTION_COMBINE_RULE = 'min' as const;
/** The restitution rule every collider uses (see the module comment). */
export const RESTITUTION_COMBINE_RULE = 'max' as const;

/** Friction coefficient of a contact between two materials: `min(a, b)`. */
export function combinedFriction(a: number, b: number): number {
  return Math.min(a, b);
}

/** Restitution of a contact between two materials: `max(a, b)`. */
export function combinedRestitution(a: number, b: number): number {
  return Math.max(a, b);
}

/** Fills missing fields from {@link DEFAULT_MATERIAL} and validates the result. */
export function resolveMaterial(partial: unknown, path: string): Material {
  if (partial === undefined) return { ...DEFAULT_MATERIAL };
  const m = plainObject(partial, path);
  return {
    density: m.density === undefined ? DEFAULT_MATERIAL.density : finiteNumber(m.density, `${path}.density`, { above: 0, max: 1e5 }),
    friction: m.friction === undefined ? DEFAULT_MATERIAL.friction : finiteNumber(m.friction, `${path}.friction`, { min: 0, max: 10 }),
    restitution: m.restitution === undefined ? DEFAULT_MATERIAL.restitution : finiteNumber(m.restitution, `${path}.restitution`, { min: 0, max: 1 }),
  };
}

/** Applies a material and the project's combine rules to a Rapier collider description. */
export function applyMaterial(desc: RAPIER.ColliderDesc, material: Material): RAPIER.ColliderDesc {
  return desc
    .setDensity(material.density)
    .setFriction(material.friction)
    .setRestitution(material.restitution)
    .setFrictionCombineRule(RAPIER.CoefficientCombineRule.Min)
    .setRestitutionCombineRule(RAPIER.CoefficientCombineRule.Max);
}
