import { createRequire as __bundleCreateRequire } from "node:module";
const require = __bundleCreateRequire(import.meta.url);
var d=(b=>typeof require<"u"?require:typeof Proxy<"u"?new Proxy(b,{get:(a,c)=>(typeof require<"u"?require:a)[c]}):b)(function(b){if(typeof require<"u")return require.apply(this,arguments);throw Error('Dynamic require of "'+b+'" is not supported')});var e=(b,a)=>()=>{try{return a||b((a={exports:{}}).exports,a),a.exports}catch(c){throw a=0,c}};export{d as a,e as b};
//# sourceMappingURL=chunk-XSMPFL64.js.map
