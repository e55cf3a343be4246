/**
 * Handedness and rotation certificates (solvers/polycube-chirality.ts) on hand-built shapes:
 * chirality, mirror images, which rotations carry a shape onto another and by how much, one-cube
 * near misses, and the two question certificates, including cases that must be refused.
 */
import { expect } from 'chai';
import {
  certifyOddOneOut,
  certifyRotatedCopy,
  closeNearMiss,
  degreeProfile,
  handednessOf,
  isChiral,
  mirrorCells,
  oneCubeMoves,
  properlyCongruent,
  rotationsOnto,
  rotationSymmetries,
  smallestTurn,
  sortedExtent,
} from '../solvers/polycube-chirality.ts';
import { SpaceActError } from '../core/errors.ts';
import { enumeratePolycubes, normalize, rotate, rotations24, type Cell } from '../solvers/polycube.ts';

/** The right-handed screw tetracube: three cubes in an L and one standing up off the corner's end. */
const SCREW: Cell[] = [
  [0, 0, 0],
  [1, 0, 0],
  [1, 0, 1],
  [1, 1, 1],
];
/** An asymmetric chiral pentacube. */
const CHIRAL5: Cell[] = [
  [0, 0, 0],
  [1, 0, 0],
  [2, 0, 0],
  [2, 1, 0],
  [2, 1, 1],
];
/** A flat L pentomino: achiral in space (turned over, it is its own mirror image). */
const FLAT_L: Cell[] = [
  [0, 0, 0],
  [1, 0, 0],
  [2, 0, 0],
  [3, 0, 0],
  [3, 0, 1],
];

describe('polycube chirality certificates', () => {
  it('a flat shape is never chiral; the screw and the bent pentacube are, and their mirror images differ from them', () => {
    expect(isChiral(FLAT_L)).to.equal(false);
    expect(isChiral(SCREW)).to.equal(true);
    expect(isChiral(CHIRAL5)).to.equal(true);
    expect(properlyCongruent(CHIRAL5, mirrorCells(CHIRAL5))).to.equal(false);
    expect(properlyCongruent(mirrorCells(mirrorCells(CHIRAL5)), CHIRAL5)).to.equal(true);
  });

  it('counts: 1 chiral pair among the 8 one-sided tetracubes, 6 among the 29 pentacubes (one-sided minus free counts)', () => {
    expect(enumeratePolycubes(4).filter(isChiral).length).to.equal(8 - 7 + 1);
    expect(enumeratePolycubes(5).filter(isChiral).length).to.equal(2 * (29 - 23));
  });

  it('every proper rotation of a shape is a copy, every improper one a mirror image', () => {
    for (const m of rotations24()) {
      expect(handednessOf(CHIRAL5, rotate(CHIRAL5, m))).to.equal('copy');
      expect(handednessOf(CHIRAL5, rotate(mirrorCells(CHIRAL5), m))).to.equal('mirror');
    }
    expect(handednessOf(CHIRAL5, FLAT_L)).to.equal('other');
  });

  it('rotationsOnto finds exactly the rotations that carry a shape onto its turned copy', () => {
    const m = rotations24()[7];
    const turned = normalize(rotate(CHIRAL5, m));
    const found = rotationsOnto(CHIRAL5, turned);
    expect(found).to.have.length(1);
    expect(found[0]).to.deep.equal(m);
    expect(rotationsOnto(CHIRAL5, mirrorCells(CHIRAL5))).to.deep.equal([]);
    // The screw has a half-turn symmetry: two rotations carry it onto itself.
    expect(rotationSymmetries(SCREW)).to.have.length(2);
    expect(rotationSymmetries(CHIRAL5)).to.have.length(1);
  });

  it('smallestTurn measures the world turn between two placed parts, yaw included', () => {
    const a = { cells: CHIRAL5, yawDeg: 0 };
    expect(smallestTurn(a, { cells: CHIRAL5, yawDeg: 0 })!.angleDeg).to.be.closeTo(0, 1e-9);
    const yawOnly = smallestTurn(a, { cells: CHIRAL5, yawDeg: 70 })!;
    expect(yawOnly.angleDeg).to.be.closeTo(70, 1e-6);
    expect(yawOnly.axisTiltDeg).to.be.closeTo(0, 1e-6);
    // A quarter turn about x (tipping the part over): 90°, axis horizontal.
    const tipX = normalize(rotate(CHIRAL5, [1, 0, 0, 0, 0, -1, 0, 1, 0]));
    const tip = smallestTurn(a, { cells: tipX, yawDeg: 0 })!;
    expect(tip.angleDeg).to.be.closeTo(90, 1e-6);
    expect(tip.axisTiltDeg).to.be.closeTo(90, 1e-6);
    // The turn about the x axis composed with a yaw of 180°: a half turn about a horizontal axis.
    const half = smallestTurn(a, { cells: tipX, yawDeg: 180 })!;
    expect(half.angleDeg).to.be.closeTo(180, 1e-6);
    expect(smallestTurn(a, { cells: mirrorCells(CHIRAL5), yawDeg: 0 })).to.equal(null);
  });

  it('one-cube moves keep the cube count and connectivity and are neither copies nor mirror images', () => {
    const moves = oneCubeMoves(CHIRAL5);
    expect(moves.length).to.be.greaterThan(3);
    for (const m of moves) {
      expect(m).to.have.length(5);
      expect(handednessOf(CHIRAL5, m)).to.equal('other');
    }
    const close = moves.filter((m) => closeNearMiss(CHIRAL5, m));
    for (const m of close) {
      expect(sortedExtent(m)).to.deep.equal(sortedExtent(CHIRAL5));
      expect(degreeProfile(m)).to.equal(degreeProfile(CHIRAL5));
    }
  });

  it('certifyOddOneOut names the mirror copy and refuses an achiral shape, two mirror copies, or a stranger', () => {
    const parts = [rotate(CHIRAL5, rotations24()[3]), rotate(mirrorCells(CHIRAL5), rotations24()[5]), CHIRAL5, rotate(CHIRAL5, rotations24()[11])];
    const cert = certifyOddOneOut(parts);
    expect(cert.odd).to.equal(1);
    expect(cert.witnesses[1]).to.deep.equal([]);
    expect(cert.witnesses[2]).to.have.length(1);
    const refuse = (ps: Cell[][]): void => {
      expect(() => certifyOddOneOut(ps)).to.throw(SpaceActError);
    };
    refuse([FLAT_L, FLAT_L, FLAT_L, rotate(FLAT_L, rotations24()[9])]);
    refuse([CHIRAL5, mirrorCells(CHIRAL5), CHIRAL5, mirrorCells(CHIRAL5)]);
    refuse([CHIRAL5, CHIRAL5, CHIRAL5, oneCubeMoves(CHIRAL5)[0]]);
    refuse([CHIRAL5, CHIRAL5, CHIRAL5, CHIRAL5]);
  });

  it('certifyRotatedCopy needs exactly one proper copy among the candidates', () => {
    const copy = rotate(CHIRAL5, rotations24()[17]);
    const miss = oneCubeMoves(CHIRAL5)[2];
    expect(certifyRotatedCopy(CHIRAL5, [mirrorCells(CHIRAL5), copy, miss]).copy).to.equal(1);
    expect(certifyRotatedCopy(CHIRAL5, [mirrorCells(CHIRAL5), copy, miss]).relations).to.deep.equal(['mirror', 'copy', 'other']);
    expect(() => certifyRotatedCopy(CHIRAL5, [copy, CHIRAL5, miss])).to.throw(SpaceActError);
    expect(() => certifyRotatedCopy(CHIRAL5, [mirrorCells(CHIRAL5), miss])).to.throw(SpaceActError);
  });
});
