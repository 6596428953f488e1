import { describe, expect, it } from 'vitest';
import { Router } from '../../src/testing/transport/router.js';

const router = new Router<string>({
  'GET /v1/items': 'list items',
  'POST /v1/items': 'create item',
  'GET /v1/items/:id': 'retrieve item',
  'DELETE /v1/items/:id': 'delete item',
  'GET /v1/items/:id/parts/:part': 'retrieve part',
});

describe('the sandbox router', () => {
  it('finds an exact path by method', () => {
    expect(router.match('POST', '/v1/items')).toEqual({ kind: 'found', handler: 'create item', params: {} });
  });

  it('hands each :param segment over as sent, not percent-decoded', () => {
    expect(router.match('GET', '/v1/items/a%2Fb/parts/..')).toEqual({
      kind: 'found',
      handler: 'retrieve part',
      params: { id: 'a%2Fb', part: '..' },
    });
  });

  it.each([['/v1/items/'], ['/v1/items/x/'], ['/v1/items//parts/p'], ['/v1/items/x/y'], ['/v1/Items'], ['']])(
    'finds nothing for %j: a :param is one non-empty segment and literals match exactly',
    (path) => {
      expect(router.match('GET', path)).toEqual({ kind: 'not-found' });
    },
  );

  it('lists the methods a known path allows, in table order, when the method is not one of them', () => {
    expect(router.match('PUT', '/v1/items')).toEqual({ kind: 'wrong-method', allow: ['GET', 'POST'] });
    expect(router.match('POST', '/v1/items/x')).toEqual({ kind: 'wrong-method', allow: ['GET', 'DELETE'] });
  });

  it('compares methods exactly, as the HTTP server hands them over', () => {
    expect(router.match('get', '/v1/items/x')).toEqual({ kind: 'wrong-method', allow: ['GET', 'DELETE'] });
  });
});
