import 'reflect-metadata';
export { container, inject, injectable, injectAll, singleton } from 'tsyringe';
