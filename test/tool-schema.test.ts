import { expect } from 'chai';
import { defaultArgs } from '../agents/null.ts';
import { enumerateSchema, sampleSchema } from '../agents/schema-sampler.ts';
import { Rng } from '../core/rng.ts';
import { fieldControl } from '../play/form.ts';
import { CAMERA_TOOLS } from '../tasks/camera-tools.ts';
import { families } from '../tasks/registry.ts';
import { releasedInstances } from '../tasks/suites.ts';
import { familyAndInstanceFromId } from '../tasks/registry.ts';
import { declaredType, readSchema, unsupportedKeywords } from '../tasks/tool-schema.ts';
import type { JsonSchema } from '../tasks/types.ts';

describe('tool argument schemas: one supported subset, one reading', () => {
  it('every tool of every released instance, and the camera tools, stay inside the subset', () => {
    const outside: string[] = [];
    for (const t of CAMERA_TOOLS) outside.push(...unsupportedKeywords(t.parameters, t.name));
    for (const f of families()) {
      const id = releasedInstances(f.id)[0];
      for (const t of familyAndInstanceFromId(id).instance.tools) outside.push(...unsupportedKeywords(t.parameters, `${id} ${t.name}`));
    }
    expect(outside).to.deep.equal([]);
    expect(unsupportedKeywords({ type: 'object', properties: { a: { type: 'string', format: 'email' } } })).to.deep.equal(['(root).a: format']);
  });

  it('reads null one way: beside another type it makes the value nullable; alone it is the null type', () => {
    expect(declaredType({ type: ['null', 'number'] })).to.deep.equal({ type: 'number', nullable: true });
    expect(declaredType({ type: ['number', 'null'] })).to.deep.equal({ type: 'number', nullable: true });
    expect(declaredType({ type: ['null'] })).to.deep.equal({ type: 'null', nullable: false });
    expect(readSchema({ type: 'null' }).kind).to.equal('null');
  });

  it('every consumer follows that reading of a nullable number', () => {
    const schema: JsonSchema = { type: 'object', properties: { x: { type: ['null', 'integer'], minimum: 2, maximum: 4 } }, required: ['x'] };
    // The null policy's simplest value of a nullable field is null; the sampler draws the number.
    expect(defaultArgs(schema)).to.deep.equal({ x: null });
    const rng = new Rng('tool-schema-test');
    for (let i = 0; i < 20; i++) expect((sampleSchema(schema, rng) as { x: number }).x).to.be.within(2, 4);
    expect(enumerateSchema(schema)).to.deep.equal([{ x: 2 }, { x: 3 }, { x: 4 }]);
    expect(fieldControl((schema.properties as Record<string, JsonSchema>).x)).to.deep.equal({ control: 'number', integer: true, min: 2, max: 4 });
  });

  it('a choice among consts is offered as a choice, and never guessed by the null policy', () => {
    const letters: JsonSchema = { type: 'string', oneOf: [{ const: 'A' }, { const: 'B' }] };
    expect(fieldControl(letters)).to.deep.include({ control: 'choice', style: 'buttons' });
    expect(defaultArgs({ type: 'object', properties: { choice: letters }, required: ['choice'] })).to.deep.equal({});
    expect(enumerateSchema(letters)).to.deep.equal(['A', 'B']);
    // One number range behind a oneOf is entered as that number.
    expect(fieldControl({ oneOf: [{ type: 'number', minimum: 0, maximum: 180 }] })).to.deep.equal({ control: 'number', integer: false, min: 0, max: 180 });
  });
});
